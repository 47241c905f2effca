"""MkDocs hooks (mkdocs.yml `hooks:`): what the site generates at every build instead of keeping by hand.

- reference/cli.md, reference/settings.md, reference/cypher.md: pages written from the code (the typer app,
  the config dataclasses and the environment variables the package reads, cypher/**.cypher);
- the benchmark plots: benchmarks/results/**.png served as they are (no copy in docs/);
- the Browser screenshots that tests/integration/test_browser.py leaves in tests/artifacts/, when present;
- the graph model diagram, read from a Neo4j (graph_model.py), or its last checked-in snapshot.

A page asks for generated text with a marker line, `<!-- generated: NAME -->`, replaced in on_page_markdown.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from mkdocs.structure.files import File, Files

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
for path in (str(ROOT), str(HERE)):  # this checkout's package (as mkdocstrings' `paths: [.]`), then ours
    if path not in sys.path:
        sys.path.insert(0, path)

import cli_reference  # noqa: E402
import cypher_reference  # noqa: E402
import graph_model  # noqa: E402
import settings_reference  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results"
ARTIFACTS = ROOT / "tests" / "artifacts"
SCREENSHOTS = {  # what tests/integration/test_browser.py saves -> where the Browser guide shows it
    "neo4j-browser-guide.png": "the neighbourhood guide query run in Neo4j Browser, with the style sheet applied",
    "neo4j-browser.png": "Neo4j Browser's connect form, served by the local server",
}
MARKER = re.compile(r"^<!-- generated: ([a-z_-]+) -->$", re.MULTILINE)
_model: graph_model.Diagram | None = None


def on_files(files: Files, config) -> Files:
    for uri, text in (("reference/cli.md", cli_reference.markdown()),
                      ("reference/settings.md", settings_reference.markdown()),
                      ("reference/cypher.md", cypher_reference.markdown(ROOT / "cypher"))):
        files.append(File.generated(config, uri, content=text))
    for png in sorted(RESULTS.rglob("*.png")):
        files.append(File.generated(config, f"benchmarks/results/{png.relative_to(RESULTS).as_posix()}",
                                    abs_src_path=str(png)))
    for name in SCREENSHOTS:
        if (ARTIFACTS / name).is_file():
            files.append(File.generated(config, f"guides/img/{name}", abs_src_path=str(ARTIFACTS / name)))
    return files


def _screenshots() -> str:
    shown = [f"![{what}](img/{name})\n\n*{what.capitalize()}* (`tests/artifacts/{name}`)."
             for name, what in SCREENSHOTS.items() if (ARTIFACTS / name).is_file()]
    if shown:
        return "\n\n".join(shown)
    return ("!!! note \"No screenshots in this build\"\n    `tests/integration/test_browser.py` takes them "
            "(`tests/artifacts/neo4j-browser-guide.png`, `neo4j-browser.png`) and this page shows them when the "
            "site is built after it; it needs Debian's `chromium`. This build found none.")


def _generated(name: str) -> str:
    global _model
    if name == "graph-model":
        _model = _model or graph_model.diagram()
        return _model.markdown
    if name == "states":
        return settings_reference.states()
    if name == "remedies":
        return settings_reference.remedies()
    if name == "browser-screenshots":
        return _screenshots()
    raise KeyError(f"unknown generated block {name!r} (docs/hooks/build.py)")


def on_page_markdown(markdown: str, page, config, files) -> str:
    return MARKER.sub(lambda m: _generated(m.group(1)), markdown)
