"""Security, read from the source: Cypher is only ever loaded from cypher/ and given parameters (no string
built Cypher anywhere in the package), no default password in what ships, and secrets stay out of reprs,
error messages and logs. The server-side checks (127.0.0.1 only, MCP confinement) are in
tests/integration/test_security_server.py."""

from __future__ import annotations

import ast
import logging
import re
import subprocess
from pathlib import Path

import pytest
from pydantic import BaseModel

from memgraph_neo4j.config import Connection
from memgraph_neo4j.extractors.llm import LLMExtractor
from memgraph_neo4j.llm import OpenAIChat
from memgraph_neo4j.memory.ontology import load_ontology
from memgraph_neo4j.store import GraphStore, StoreError

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "memgraph_neo4j"
RUNNERS = {"run", "execute_read", "execute_write", "execute_query", "read_transaction", "write_transaction"}
# A Cypher clause as it starts a statement: what a string literal must not hold outside cypher/.
CYPHER = re.compile(r"\b(MATCH|OPTIONAL MATCH|MERGE|CREATE)\s*\(|\bUNWIND\s+\$|\bDETACH\s+DELETE\b|"
                    r"\bCALL\s+(gds|db|apoc)\.\w+|\bRETURN\s+\w+(\.\w+)?\s+AS\b|\bSET\s+\w+\.\w+\s*=")
SECRET = "s3cret-Pa55-do-not-log"


def _sources() -> list[Path]:
    return sorted(PACKAGE.rglob("*.py"))


def _docstrings(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                ids.add(id(first.value))
    return ids


def _string_built(node: ast.expr) -> bool:
    """An f-string, a `+` or `%` of strings, or a `.format()` / `.join()` call: text assembled at run time."""
    if isinstance(node, ast.JoinedStr):
        return True
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        return True
    return (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
            and node.func.attr in {"format", "join", "replace"})


def test_no_statement_is_built_from_strings():
    """Every call that runs Cypher gets its text from the statement library (cypher/), never from an
    f-string, a concatenation or .format(): values can only travel as parameters."""
    found = []
    for path in _sources():
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in RUNNERS:
                first = node.args[0] if node.args else None
                if first is not None and (_string_built(first) or isinstance(first, ast.Constant)
                                          and isinstance(first.value, str) and CYPHER.search(first.value)):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {ast.unparse(first)[:80]}")
    assert not found, "Cypher built in Python:\n" + "\n".join(found)


def test_no_cypher_in_python_string_literals():
    """Statements live in cypher/*.cypher, loaded by name; a Python string holding a clause is a statement
    that escaped the library (docstrings, which describe statements, are not run)."""
    found = []
    for path in _sources():
        tree = ast.parse(path.read_text(), str(path))
        docs = _docstrings(tree)
        for node in ast.walk(tree):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docs \
                    and CYPHER.search(node.value):
                found.append(f"{path.relative_to(ROOT)}:{node.lineno}: {node.value[:80]!r}")
    assert not found, "Cypher in Python strings:\n" + "\n".join(found)


def test_the_checks_see_string_built_cypher(tmp_path):
    bad = ast.parse('tx.run(f"MATCH (n {{name: \'{name}\'}}) RETURN n")\nsession.run("MATCH (n) " + where)\n'
                    'tx.run("MERGE (n:X {{id: {}}})".format(x))')
    calls = [n for n in ast.walk(bad) if isinstance(n, ast.Call) and getattr(n.func, "attr", "") == "run"]
    assert len(calls) == 3 and all(_string_built(c.args[0]) for c in calls)
    assert CYPHER.search("MATCH (n:Passage) RETURN n.id AS id") and not CYPHER.search("match the passage")


def test_cypher_files_take_values_as_parameters():
    """No statement file carries a Python format placeholder ({name}, %s) that text could be pasted into."""
    placeholder = re.compile(r"%[sd]|\{\d+\}|\{[A-Za-z_]\w*\}")  # `{}` alone is Cypher's empty map
    found = []
    for path in sorted((ROOT / "cypher").rglob("*.cypher")):
        for number, line in enumerate(path.read_text().splitlines(), 1):
            code = line.split("//", 1)[0]
            if placeholder.search(code):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "\n".join(found)


def _shipped() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard"], cwd=ROOT, capture_output=True,
                            text=True, check=True).stdout.split()
    keep = (".py", ".yml", ".yaml", ".toml", ".md", ".cfg", ".ini", ".conf", ".sh", ".cypher", ".json", "")
    return [ROOT / p for p in listed if not p.startswith("tests/") and Path(p).suffix in keep
            and (ROOT / p).is_file() and (ROOT / p).stat().st_size < 2_000_000]


DEFAULT_PASSWORDS = [
    re.compile(r"NEO4J_PASSWORD:-"),  # a compose/shell default: ${NEO4J_PASSWORD:-something}
    re.compile(r"NEO4J_AUTH[\"'=: ]+neo4j/(?!\$)"),  # a literal password in NEO4J_AUTH
    re.compile(r"""environ(?:\.get)?\(\s*["']NEO4J_PASSWORD["']\s*,\s*["'][^"']+["']"""),  # a non-empty fallback
    re.compile(r"""auth\s*=\s*\(\s*["']neo4j["']\s*,\s*["']"""),  # a literal password in driver auth
    re.compile(r"""(?i)\bpassword\s*[:=]\s*["'](neo4j|password|admin|secret|changeme|test)["']"""),
]


def test_no_default_password_anywhere():
    found = []
    for path in _shipped():
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        for pattern in DEFAULT_PASSWORDS:
            for match in pattern.finditer(text):
                line = text.count("\n", 0, match.start()) + 1
                found.append(f"{path.relative_to(ROOT)}:{line}: {text.splitlines()[line - 1].strip()[:100]}")
    assert not found, "default passwords:\n" + "\n".join(found)


def test_the_local_server_password_is_random():
    source = (PACKAGE / "server" / "instance.py").read_text()
    assert "secrets.token_hex(16)" in source and "0o600" in source


def test_secrets_stay_out_of_reprs_errors_and_logs(caplog):
    caplog.set_level(logging.DEBUG)
    conn = Connection(uri="bolt://127.0.0.1:1", username="neo4j", password=SECRET)
    assert SECRET not in repr(conn) and SECRET not in str(conn)
    with pytest.raises(StoreError) as down:
        GraphStore.connect(conn)
    assert SECRET not in str(down.value) and SECRET not in repr(down.value)

    class Reply(BaseModel):
        answer: str = ""

    chat = OpenAIChat(model="gpt-test", base_url="http://127.0.0.1:1/v1", api_key=SECRET, timeout=2)
    assert SECRET not in repr(chat)
    with pytest.raises(Exception) as failed:
        chat.complete_json("system", "user", Reply)
    assert SECRET not in str(failed.value)
    from memgraph_neo4j.contracts import ExtractionInput, NoGuide

    extractor = LLMExtractor(chat, load_ontology(), max_retries=0, backoff=0)
    [outcome] = extractor.extract([ExtractionInput(passage_id="p", doc_id="d", text="Ada.")], NoGuide())
    assert not outcome.ok and SECRET not in (outcome.error or "")
    assert SECRET not in caplog.text and caplog.records  # the driver and the HTTP client did log


def test_compose_passes_no_password_on_a_command_line():
    """docker-compose.yml's healthcheck ran `cypher-shell -p "$NEO4J_PASSWORD"` every 5 s: the password in
    every process list of the host. It now reaches cypher-shell through its environment (from NEO4J_AUTH),
    and the compose file pins the versions the launcher assembles."""
    import yaml

    from memgraph_neo4j.versions import NEO4J_VERSION

    compose = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    neo4j = compose["services"]["neo4j"]
    command = " ".join(neo4j["healthcheck"]["test"][1:])
    assert not re.search(r"(^|\s)(-p|--password)(\s|=)", command) and "cypher-shell" in command
    assert command.startswith('NEO4J_PASSWORD="$${NEO4J_AUTH#neo4j/}" ')  # an assignment: environment, not argv
    assert not any(k == "NEO4J_PASSWORD" for k in neo4j["environment"])  # nothing for the image to read as a setting
    assert neo4j["image"] == f"neo4j:{NEO4J_VERSION}-community"
