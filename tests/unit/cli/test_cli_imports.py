"""Start-up of the one-shot CLI: importing the command does not load the heavy libraries (each command
imports what it needs), and `import_driver` loads the Neo4j driver without pandas and pyarrow."""

from __future__ import annotations

import json
import subprocess
import sys

HEAVY = ("neo4j", "numpy", "pandas", "pyarrow", "scipy", "graphdatascience", "langchain", "langchain_core",
         "spacy", "openai", "onnx", "onnxruntime", "tokenizers", "yaml", "memgraph_neo4j.store",
         "memgraph_neo4j.api", "memgraph_neo4j.retrieval", "memgraph_neo4j.embeddings.minilm")


def _modules_after(code: str) -> set[str]:
    probe = f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return set(json.loads(proc.stdout.strip().splitlines()[-1]))


def test_importing_the_cli_loads_no_heavy_module() -> None:
    loaded = _modules_after("from memgraph_neo4j.cli.main import app")
    assert "typer" in loaded and "memgraph_neo4j.cli.query_cmd" in loaded  # the probe sees the imports
    heavy = sorted(name for name in loaded if name.split(".")[0] in HEAVY or name in HEAVY)
    assert not heavy, f"importing memgraph_neo4j.cli.main loads {heavy}: import them inside the commands"


def test_query_runs_without_the_other_commands() -> None:
    """`main` builds `query` alone: the other command modules are not imported for it."""
    loaded = _modules_after("import sys\nsys.argv = ['memgraph-neo4j', 'query', '--help']\n"
                            "from memgraph_neo4j.cli.main import main\ntry:\n    main()\nexcept SystemExit:\n    pass")
    commands = sorted(n for n in loaded if n.startswith("memgraph_neo4j.cli.") and n.endswith("_cmd"))
    assert commands == ["memgraph_neo4j.cli.query_cmd"]
    assert "memgraph_neo4j.cli.spaces_cmd" in _modules_after("import memgraph_neo4j.cli.main as m\nm.app")


def test_import_driver_leaves_out_pandas_and_pyarrow_but_not_for_later() -> None:
    loaded = _modules_after(
        "from memgraph_neo4j.cli.driver import import_driver\nimport_driver()\nimport neo4j, sys\n"
        "assert 'pandas' not in sys.modules and 'pyarrow' not in sys.modules, sorted(sys.modules)\n"
        "import pandas  # still importable afterwards\nassert sys.modules['pandas'] is not None")
    assert "neo4j" in loaded and "pandas" in loaded


def test_import_driver_changes_nothing_once_pandas_is_loaded() -> None:
    _modules_after("import pandas\nfrom memgraph_neo4j.cli.driver import import_driver\nimport_driver()\n"
                   "from neo4j._optional_deps import pd\nassert pd is not None")


# what a one-shot `query` does not use: the write path, the extractors (and the ontology's YAML), answering,
# dual and conversation retrieval, the adjudication, fetching the server
NOT_FOR_QUERY = ("memgraph_neo4j.ingest", "memgraph_neo4j.extractors", "memgraph_neo4j.adjudication",
                 "memgraph_neo4j.memory.writer", "memgraph_neo4j.memory.ontology", "memgraph_neo4j.memory.categories",
                 "memgraph_neo4j.retrieval.dual", "memgraph_neo4j.retrieval.answer", "memgraph_neo4j.retrieval.hybrid",
                 "memgraph_neo4j.server.maven", "yaml", "json_repair", "tqdm",
                 "pydantic_settings")  # ~90 ms of start-up (config.Settings reads the environment itself)


def test_a_query_imports_no_write_path() -> None:
    loaded = _modules_after(
        "from memgraph_neo4j.cli.driver import import_driver\nimport_driver()\n"
        "from memgraph_neo4j.api import MemoryGraph\nimport memgraph_neo4j.retrieval.memgraphrag\n"
        "from memgraph_neo4j.server.connection import open_store\n"
        "MemoryGraph(space='s', store=object(), embedder=object(), extractor='offline')")
    assert "memgraph_neo4j.api" in loaded and "memgraph_neo4j.retrieval.graph_search" in loaded
    unneeded = sorted(n for n in loaded if any(n == m or n.startswith(m + ".") for m in NOT_FOR_QUERY))
    assert not unneeded, f"a query loads {unneeded}: import them where used"
    # still importable from the facade, where tests and scripts import it
    assert "memgraph_neo4j.extractors.factory" in _modules_after("from memgraph_neo4j.api import make_extractor")
