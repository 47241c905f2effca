"""The framework adapters are optional: nothing imports a framework until its adapter is imported (the facade,
the CLI and the adapters package load none), and an adapter whose framework is missing says which extra to
install."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

FRAMEWORKS = ("langgraph", "llama_index", "neo4j_graphrag")
# adapter module -> (a framework module it imports, the extra that installs it)
ADAPTERS = {"langchain": ("langchain_core", "langchain"), "langgraph": ("langgraph", "langgraph"),
            "neo4j_graphrag": ("neo4j_graphrag", "neo4j-graphrag"), "llamaindex": ("llama_index", "llamaindex")}


def _run(code: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)


def _modules_after(code: str) -> set[str]:
    proc = _run(f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))")
    assert proc.returncode == 0, proc.stderr
    return set(json.loads(proc.stdout.strip().splitlines()[-1]))


@pytest.mark.parametrize("code", ["import memgraph_neo4j.api", "from memgraph_neo4j.cli.main import app",
                                  "import memgraph_neo4j.adapters", "import memgraph_neo4j.adapters.recall"])
def test_no_framework_is_imported_before_its_adapter(code):
    loaded = _modules_after(code)
    assert not sorted(m for m in loaded if m.split(".")[0] in FRAMEWORKS)
    assert not [m for m in loaded if m.startswith("memgraph_neo4j.adapters.") and m != "memgraph_neo4j.adapters.recall"]


@pytest.mark.parametrize("adapter", sorted(ADAPTERS))
def test_an_adapter_without_its_framework_names_the_extra(adapter):
    framework, extra = ADAPTERS[adapter]
    # a module set to None in sys.modules cannot be imported: as if the package were not installed
    proc = _run(f"import sys\nsys.modules[{framework!r}] = None\nimport memgraph_neo4j.adapters.{adapter}")
    assert proc.returncode == 1
    assert f"pip install 'memgraph-neo4j[{extra}]'" in proc.stderr.strip().splitlines()[-1]
