"""Export one memory space to a file: JSON lines or GraphML (cypher/admin/export_nodes, export_relationships).

Both statements are streamed in one read transaction (GraphStore.stream) straight into the file, so a
space of any size is never held in memory. Nodes are keyed `Label:id` (their first label among the
memory's kinds), stable across exports; relationships carry their Neo4j element id. Embeddings are
left out unless asked for. A regular file appears (or is replaced, keeping its mode) only when complete:
written beside it, then renamed. A symlink is followed: its target is replaced, the link stays. A device
or a pipe (/dev/stdout, a FIFO) is written through once the export is complete (it is first written to
a temporary file, so a retried read transaction does not write it twice), never replaced. A write error
(ENOSPC on /dev/full or a full disk) is raised as an OSError naming the path.

- jsonl: one object per line, nodes first:
  `{"kind": "node", "key", "labels", "properties"}`,
  `{"kind": "relationship", "id", "type", "source", "target", "properties"}`.
- graphml: GraphML 1.0 that networkx, Gephi and yEd read. A node's labels are in its `labels` data
  (":Fact:Unchecked"), a relationship's type in `label`; lists (aliases, embeddings) are JSON text,
  dates ISO 8601. GraphML declares its attributes before the graph, so the body is written to a
  temporary file first and the declarations, typed from the values seen, go in front of it.
"""

from __future__ import annotations

import errno
import json
import os
import re
import shutil
import stat
import tempfile
import time
from collections.abc import Iterator
from contextlib import suppress
from pathlib import Path
from typing import Any, Literal
from xml.sax.saxutils import escape, quoteattr

from pydantic import BaseModel, Field

from memgraph_neo4j.repository.base import Repository

Format = Literal["jsonl", "graphml"]
FORMATS: tuple[str, ...] = ("jsonl", "graphml")
# a node's key takes the first of these labels it has (markers such as Unchecked come after)
KINDS = ["Document", "Passage", "Fact", "Schema", "Entity", "Alias", "Type", "Conflict", "MemoryState"]
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")  # not allowed in XML 1.0
_GRAPHML_TYPES = {bool: "boolean", int: "long", float: "double"}


class ExportReport(BaseModel):
    path: str
    format: str
    nodes: int = 0
    relationships: int = 0
    labels: dict[str, int] = Field(default_factory=dict)  # nodes per key label
    types: dict[str, int] = Field(default_factory=dict)  # relationships per type
    bytes: int = 0
    seconds: float = 0.0


def _value(value: Any) -> Any:
    """A property as JSON can hold it: temporal values as ISO 8601 text, lists element by element."""
    if isinstance(value, (list, tuple)):
        return [_value(v) for v in value]
    if hasattr(value, "iso_format"):  # neo4j.time DateTime, Date, Time
        return value.iso_format()
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    return str(value)  # durations, points


def _properties(raw: dict[str, Any]) -> dict[str, Any]:
    return {k: _value(v) for k, v in sorted(raw.items()) if v is not None}


class ExportRepository(Repository):
    def export(self, path: str | Path, fmt: Format = "jsonl", with_embeddings: bool = False) -> ExportReport:
        if fmt not in FORMATS:
            raise ValueError(f"format {fmt!r}: use one of {', '.join(FORMATS)}")
        began, path = time.monotonic(), Path(path)
        target, through = _target(path)
        params = {"space": self.space, "kinds": KINDS, "embeddings": with_embeddings}
        statements = [("admin/export_nodes", params), ("admin/export_relationships", params)]
        scratch = Path(tempfile.mkdtemp(prefix="memgraph-export-")) if through else None
        partial = scratch / "export.partial" if scratch else target.with_name(target.name + ".partial")
        writer = _JsonLines(partial) if fmt == "jsonl" else _GraphML(partial, self.space)
        try:
            if not through:
                target.parent.mkdir(parents=True, exist_ok=True)
            report = self.store.stream(statements, writer.write)
            size = partial.stat().st_size
            if through:
                with partial.open("rb") as source, target.open("wb") as out:
                    shutil.copyfileobj(source, out)
            else:
                with suppress(FileNotFoundError):
                    shutil.copymode(target, partial)  # a replaced file keeps its permissions
                os.replace(partial, target)
        except OSError as exc:
            if exc.filename is not None:
                raise
            raise type(exc)(exc.errno, exc.strerror or str(exc), str(path)) from None
        finally:
            writer.cleanup()
            if scratch:
                shutil.rmtree(scratch, ignore_errors=True)
        report.path, report.format = str(path), fmt
        report.bytes, report.seconds = size, time.monotonic() - began
        return report


def _target(path: Path) -> tuple[Path, bool]:
    """The file to write (a symlink's target, so the link stays) and whether it is written through
    (an existing device, pipe or socket: never replaced by a regular file)."""
    target = Path(os.path.realpath(path))
    try:
        mode = target.stat().st_mode
    except FileNotFoundError:
        return target, False
    if stat.S_ISDIR(mode):
        raise IsADirectoryError(errno.EISDIR, "is a folder; give a file name", str(path))
    return target, not stat.S_ISREG(mode)


def _count(report: ExportReport, index: int, row: dict[str, Any]) -> None:
    if index == 0:
        label = row["key"].split(":", 1)[0]
        report.nodes += 1
        report.labels[label] = report.labels.get(label, 0) + 1
    else:
        report.relationships += 1
        report.types[row["type"]] = report.types.get(row["type"], 0) + 1


class _JsonLines:
    def __init__(self, path: Path) -> None:
        self.path = path

    def write(self, rows: Iterator[tuple[int, dict[str, Any]]]) -> ExportReport:
        """Called again from the start if the read transaction is retried: the file starts over."""
        report = ExportReport(path=str(self.path), format="jsonl")
        with self.path.open("w", encoding="utf-8") as out:
            for index, row in rows:
                _count(report, index, row)
                if index == 0:
                    item = {"kind": "node", "key": row["key"], "labels": row["labels"],
                            "properties": _properties(row["properties"])}
                else:
                    item = {"kind": "relationship", "id": row["id"], "type": row["type"], "source": row["source"],
                            "target": row["target"], "properties": _properties(row["properties"])}
                out.write(json.dumps(item, ensure_ascii=False) + "\n")
        return report

    def cleanup(self) -> None:
        with suppress(FileNotFoundError):
            self.path.unlink()


def _text(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):
        value = json.dumps(value, ensure_ascii=False)
    return _NOT_XML.sub("", str(value))


class _GraphML:
    def __init__(self, path: Path, space: str) -> None:
        self.path, self.space = path, space
        self.body = path.with_name(path.name + ".body")

    def write(self, rows: Iterator[tuple[int, dict[str, Any]]]) -> ExportReport:
        """Called again from the start if the read transaction is retried: the files start over."""
        report = ExportReport(path=str(self.path), format="graphml")
        keys: dict[tuple[str, str], set[type]] = {("node", "labels"): {str}, ("edge", "label"): {str}}
        with self.body.open("w", encoding="utf-8") as out:
            for index, row in rows:
                _count(report, index, row)
                domain = "node" if index == 0 else "edge"
                data = {"labels": ":" + ":".join(row["labels"])} if index == 0 else {"label": row["type"]}
                data |= _properties(row["properties"])
                for name, value in data.items():
                    keys.setdefault((domain, name), set()).add(type(value))
                cells = "".join(f'<data key={quoteattr(_key_id(domain, name))}>{escape(_text(value))}</data>'
                                for name, value in data.items())
                if index == 0:
                    out.write(f"    <node id={quoteattr(_text(row['key']))}>{cells}</node>\n")
                else:
                    out.write(f"    <edge id={quoteattr(row['id'])} source={quoteattr(_text(row['source']))} "
                              f"target={quoteattr(_text(row['target']))}>{cells}</edge>\n")
        with self.path.open("w", encoding="utf-8") as out:
            out.write('<?xml version="1.0" encoding="UTF-8"?>\n'
                      '<graphml xmlns="http://graphml.graphdrawing.org/xmlns" '
                      'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" '
                      'xsi:schemaLocation="http://graphml.graphdrawing.org/xmlns '
                      'http://graphml.graphdrawing.org/xmlns/1.0/graphml.xsd">\n')
            for (domain, name), seen in sorted(keys.items()):
                out.write(f"  <key id={quoteattr(_key_id(domain, name))} for={quoteattr(domain)} "
                          f"attr.name={quoteattr(name)} attr.type={quoteattr(_graphml_type(seen))}/>\n")
            out.write(f"  <graph id={quoteattr(self.space)} edgedefault=\"directed\">\n")
            with self.body.open("r", encoding="utf-8") as body:
                shutil.copyfileobj(body, out)
            out.write("  </graph>\n</graphml>\n")
        self.body.unlink()
        return report

    def cleanup(self) -> None:
        for file in (self.body, self.path):
            with suppress(FileNotFoundError):
                file.unlink()


def _key_id(domain: str, name: str) -> str:
    return f"{domain[0]}_{name}"


def _graphml_type(seen: set[type]) -> str:
    """The one GraphML type that holds every value seen under a name: numbers widen to double,
    anything mixed (or a list, written as JSON) is a string."""
    if len(seen) == 1 and (only := next(iter(seen))) in _GRAPHML_TYPES:
        return _GRAPHML_TYPES[only]
    if seen <= {int, float}:
        return "double"
    return "string"
