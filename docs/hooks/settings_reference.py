"""The settings reference and the state tables, written from the code: `Settings` (each field, its
MEMGRAPH_ variable and default), the configuration dataclasses, every other environment variable the package
reads, and the state enums of contracts.py. A field's description is the comment beside or above it."""

from __future__ import annotations

import ast
import dataclasses
import io
import tokenize
import typing
from enum import Enum
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "memgraph_neo4j"
CONFIGS = ("MemoryConfig", "SeedConfig", "RetrievalConfig", "AdjudicationConfig")
STATES = ("SchemaState", "FactState", "ExtractionState", "ConflictType", "ConflictStatus", "Review", "Verdict",
          "StopReason")
ENV_CALLS = {"get", "getenv", "pop", "setdefault"}


def _comments(path: Path) -> dict[int, str]:
    """Line -> the text of the comment on it."""
    found = {}
    for tok in tokenize.generate_tokens(io.StringIO(path.read_text()).readline):
        if tok.type == tokenize.COMMENT:
            found[tok.start[0]] = tok.string.lstrip("#").strip()
    return found


def _class_notes(path: Path, name: str) -> dict[str, str]:
    """Field (or member) -> its comment: the lines right above it and the one beside it."""
    comments, tree = _comments(path), ast.parse(path.read_text())
    [cls] = [n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == name]
    notes, previous_end = {}, cls.lineno
    for node in cls.body:
        target = node.target if isinstance(node, ast.AnnAssign) else (
            node.targets[0] if isinstance(node, ast.Assign) and len(node.targets) == 1 else None)
        if isinstance(target, ast.Name):
            above, line = [], node.lineno - 1
            while line > previous_end and line in comments:
                above.insert(0, comments[line])
                line -= 1
            beside = comments.get(node.lineno, "")
            notes[target.id] = " ".join(part for part in (*above, beside) if part)
        previous_end = node.end_lineno or node.lineno
    return notes


def _cell(text: object) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _default(f: dataclasses.Field) -> str:
    if f.default_factory is not dataclasses.MISSING:
        value = f.default_factory()
        if dataclasses.is_dataclass(value):
            return f"`{type(value).__name__}()`"
        text = str(value).replace(str(Path.home()), "~")
        return f"`{text}` (computed)"
    return "none" if f.default is None else f"`{f.default!r}`"


def _kind(kind: object) -> str:
    text = str(kind).replace("typing.", "").replace("pathlib.", "")
    return text.removeprefix("<class '").removesuffix("'>")


def _settings_table() -> str:
    from memgraph_neo4j import config

    notes = _class_notes(PACKAGE / "config" / "__init__.py", "Settings")
    kinds = typing.get_type_hints(config.Settings)
    rows = ["| setting | environment variable | default | type | what |", "|---|---|---|---|---|"]
    for f in dataclasses.fields(config.Settings):
        rows.append(f"| `{f.name}` | `{config.ENV_PREFIX}{f.name.upper()}` | {_cell(_default(f))} | "
                    f"`{_kind(kinds[f.name])}` | {_cell(notes.get(f.name, ''))} |")  # a code span keeps its |
    return "\n".join(rows)


def _config_table(name: str) -> str:
    from memgraph_neo4j import config

    cls = getattr(config, name)
    notes = _class_notes(PACKAGE / "config" / "__init__.py", name)
    doc = " ".join((cls.__doc__ or "").split())
    doc = "" if doc.startswith(f"{name}(") else doc  # dataclass's own docstring: the signature again
    rows = [f"### `{name}`", "", doc, "", "| field | default | what |", "|---|---|---|"]
    for f in dataclasses.fields(cls):
        rows.append(f"| `{f.name}` | {_cell(_default(f))} | {_cell(notes.get(f.name, ''))} |")
    return "\n".join(rows)


def _literal(node: ast.AST | None) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):  # ENV_PREFIX + "COPIES_DIR"
        left = "MEMGRAPH_" if isinstance(node.left, ast.Name) and node.left.id == "ENV_PREFIX" else _literal(node.left)
        right = _literal(node.right)
        return left + right if left and right else None
    return None


def _is_environ(node: ast.AST) -> bool:
    return isinstance(node, ast.Attribute) and node.attr == "environ"


def environment_variables() -> dict[str, tuple[str, set[str]]]:
    """Variable -> (default where the code gives one, modules that read it): os.environ reads and typer
    options' envvar, found in the package's source."""
    found: dict[str, tuple[str, set[str]]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        module = path.relative_to(PACKAGE.parent).with_suffix("").as_posix().replace("/", ".")
        for node in ast.walk(ast.parse(path.read_text())):
            name, default = None, ""
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.args and (
                    (node.func.attr in ENV_CALLS and _is_environ(node.func.value))
                    or (node.func.attr == "getenv" and isinstance(node.func.value, ast.Name))):
                name = _literal(node.args[0])
                default = repr(node.args[1].value) if len(node.args) > 1 and isinstance(
                    node.args[1], ast.Constant) else ""
            elif isinstance(node, ast.Subscript) and _is_environ(node.value):
                name = _literal(node.slice)
            elif isinstance(node, ast.keyword) and node.arg == "envvar":
                name = _literal(node.value)
            if name:
                old_default, modules = found.get(name, ("", set()))
                found[name] = (old_default or default, modules | {module})
    return found


def _environment_table() -> str:
    from memgraph_neo4j import config

    settings = {f"{config.ENV_PREFIX}{f.name.upper()}" for f in dataclasses.fields(config.Settings)}
    rows = ["| variable | default in the code | read by |", "|---|---|---|"]
    for name, (default, modules) in sorted(environment_variables().items()):
        if name not in settings:
            rows.append(f"| `{name}` | {f'`{_cell(default)}`' if default else ''} | "
                        f"{', '.join(f'`{m}`' for m in sorted(modules))} |")
    return "\n".join(rows)


def markdown() -> str:
    return "\n\n".join([
        "# Settings",
        "Generated at every build from `memgraph_neo4j/config/__init__.py` (the tables, with the comments beside each "
        "field) and from the package's source (every environment variable it reads).",
        "## `Settings`: the environment",
        "Every command and `MemoryGraph(settings=...)` build one `Settings`: a keyword argument, else the "
        "environment variable `MEMGRAPH_<FIELD>` (any case), else the default. A value it cannot take stops "
        "every command with one line naming the variable, the value and what is allowed (exit code 1); the "
        "Python API raises `SettingsError`, a `ValueError`, with that text.",
        _settings_table(),
        "## Other environment variables",
        "Read where they are used, not through `Settings`. `NEO4J_URI`, `NEO4J_USERNAME`, `NEO4J_PASSWORD` and "
        "`NEO4J_DATABASE` override the local server whenever `NEO4J_URI` is set; `OPENAI_API_KEY` / "
        "`OPENAI_BASE_URL` configure the chat model (`MEMGRAPH_LLM_MODEL` names it).",
        _environment_table(),
        "## Configuration objects (Python)",
        "Passed to `MemoryGraph(config=..., retrieval=..., adjudication=...)`; "
        "`RetrievalConfig(seeds=SeedConfig(...))`. "
        "No environment variable sets them, except where `Settings` chooses (`ppr_engine`, `layer_search`).",
        *[_config_table(name) for name in CONFIGS],
    ]) + "\n"


def states() -> str:
    """The state enums of contracts.py as tables: member, value, the comment beside it; the class docstring."""
    from memgraph_neo4j import contracts

    parts = []
    for name in STATES:
        cls: type[Enum] = getattr(contracts, name)
        notes = _class_notes(PACKAGE / "contracts.py", name)
        doc = " ".join((cls.__doc__ or "").split())
        rows = [f"**`{name}`**" + (f": {doc}" if doc and not doc.startswith("An enumeration") else "")]
        if not any(notes.get(m.name) for m in cls):
            rows[0] += " Values: " + ", ".join(f"`{m.value}`" for m in cls) + "."
        else:
            rows += ["", "| value | meaning |", "|---|---|"]
            rows += [f"| `{m.value}` | {_cell(notes.get(m.name, ''))} |" for m in cls]
        parts.append("\n".join(rows))
    return "\n\n".join(parts)


def _assigned_dict(path: Path, name: str) -> dict[str, str]:
    """The literal dict assigned to `name` at the top of a module, read without importing it (mcp/server.py
    needs the optional `mcp` package)."""
    for node in ast.parse(path.read_text()).body:
        if isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == name for t in node.targets):
            return ast.literal_eval(node.value)
    raise KeyError(f"no {name} in {path}")


def remedies() -> str:
    """What each surface tells a caller to do, by remedy (validation.SurfaceError's keys)."""
    surfaces = (("Python API", _assigned_dict(PACKAGE / "validation.py", "API_REMEDIES")),
                ("command line", _assigned_dict(PACKAGE / "cli" / "output.py", "REMEDIES")),
                ("MCP", _assigned_dict(PACKAGE / "mcp" / "server.py", "REMEDIES")))
    rows = ["| remedy | " + " | ".join(name for name, _ in surfaces) + " |", "|---" * (len(surfaces) + 1) + "|"]
    for key in surfaces[0][1]:
        rows.append(f"| `{key}` | " + " | ".join(_cell(table.get(key, "")) for _, table in surfaces) + " |")
    return "\n".join(rows)
