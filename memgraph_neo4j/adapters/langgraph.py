"""LangGraph long-term memory: `MemoryStore`, a `langgraph.store.base.BaseStore` on memory spaces.

A namespace's first label names the memory space, and the namespace with the key names one document there:

    namespace ("team-memory", "users", "ada"), key "tea"  ->  space "team-memory", a document titled "tea"
    whose source is "langgraph:users.ada." (each further label and a dot: labels never hold one), whose
    metadata holds the namespace, key, value and times, and whose text (the value's string fields, or the
    paths `index` names) is ingested like any other document: passages, facts, entities, conflicts.

So `search(prefix, query=...)` is this engine's retrieval (`method`, `as_of`) over the items' passages, each
result a `MemorySearchItem` whose `metadata` is the passage's (adapters/recall.py: document, facts, their
states and conflicts), and what an agent stores is found by every other surface too (API, CLI, MCP).
`put` of a new value writes the new document, then retracts the old one (memory/retract.py); `delete`
retracts it. `get`, `search` without a query and `list_namespaces` read the documents' metadata.

Reads in a batch see the store as it was before the batch's writes, and the last write of a key wins (as
LangGraph's InMemoryStore). TTLs are not supported (`supports_ttl` is False). `abatch` runs `batch` on a
worker thread; one batch runs at a time.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import threading
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from memgraph_neo4j.adapters.recall import FACTS_PER_PASSAGE, recall
from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.validation import check_space

try:
    from langgraph.store.base import (
        BaseStore,
        GetOp,
        InvalidNamespaceError,
        Item,
        ListNamespacesOp,
        MatchCondition,
        Op,
        PutOp,
        Result,
        SearchItem,
        SearchOp,
        get_text_at_path,
    )
except ImportError as exc:
    raise ImportError("memgraph_neo4j.adapters.langgraph needs LangGraph: pip install 'memgraph-neo4j[langgraph]'"
                      ) from exc

SOURCE = "langgraph:"  # the source of every item's document: then the namespace's labels after the space
KIND = "langgraph"


def source_of(labels: Iterable[str]) -> str:
    """The source prefix of the documents under these labels (the namespace after its space)."""
    return SOURCE + "".join(f"{label}." for label in labels)


class MemorySearchItem(SearchItem):
    """A search result with the metadata of the passage that found it (adapters/recall.py)."""

    __slots__ = ("metadata",)

    def __init__(self, *, metadata: dict[str, Any] | None = None, **item: Any) -> None:
        super().__init__(**item)
        self.metadata = metadata or {}

    def dict(self) -> dict:
        return {**super().dict(), "metadata": self.metadata}


@dataclass(frozen=True)
class _Stored:
    doc_id: str
    item: Item
    indexed: bool


class MemoryStore(BaseStore):
    """`spaces`: the spaces it may use (namespaces naming another raise InvalidNamespaceError); None: any, and
    `list_namespaces` / `search(())` read every space of the database. `graph_store`: a connection to share
    (default: the first space opens one from the environment's settings). `method`, `as_of`, `facts`: as the
    other adapters' retrievers. `index`: the value paths whose text is ingested (LangGraph's path syntax;
    default: the value's string fields, else its JSON). The rest goes to each space's `MemoryGraph`
    (embedder, extractor, ontology, settings, ...)."""

    supports_ttl = False

    def __init__(self, spaces: Iterable[str] | None = None, *, graph_store: Any = None, method: str = "memgraphrag",
                 as_of: Any = None, facts: int = FACTS_PER_PASSAGE, index: list[str] | None = None,
                 **memory_options: Any) -> None:
        self.spaces = None if spaces is None else list(spaces)
        for space in self.spaces or ():
            check_space(space)
        self.method, self.as_of, self.facts, self.index = method, as_of, facts, index
        self._options = {**memory_options, **({"store": graph_store} if graph_store is not None else {})}
        self._memories: dict[str, MemoryGraph] = {}
        self._extractor: Any = None
        self._lock = threading.Lock()

    # ----- the interface ---------------------------------------------------------------------
    def batch(self, ops: Iterable[Op]) -> list[Result]:
        ops = list(ops)
        with self._lock:
            for op in ops:
                _check_labels(op)
            results: list[Result] = []
            puts: dict[tuple[tuple[str, ...], str], PutOp] = {}
            for op in ops:
                if isinstance(op, GetOp):
                    results.append(self._get(op))
                elif isinstance(op, SearchOp):
                    results.append(self._search(op))
                elif isinstance(op, ListNamespacesOp):
                    results.append(self._list_namespaces(op))
                elif isinstance(op, PutOp):
                    self._space(op.namespace)
                    puts[(tuple(op.namespace), str(op.key))] = op
                    results.append(None)
                else:
                    raise TypeError(f"unknown store operation {type(op).__name__}: GetOp, SearchOp, PutOp or "
                                    "ListNamespacesOp")
            self._write(list(puts.values()))
            return results

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        return await asyncio.get_running_loop().run_in_executor(None, self.batch, list(ops))

    def close(self) -> None:
        for memory in reversed(list(self._memories.values())):  # the first one may own the connection
            memory.close()
        self._memories.clear()

    def __enter__(self) -> MemoryStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # ----- spaces ------------------------------------------------------------------------------
    def memory(self, space: str) -> MemoryGraph:
        """The MemoryGraph of a space this store uses (the first one opens the connection the others share)."""
        if space not in self._memories:
            self._memories[space] = MemoryGraph(space=space, **self._options)
            first = next(iter(self._memories.values()))
            self._options.update(store=first.store, embedder=first.embedder)
        return self._memories[space]

    def _space(self, namespace: tuple[str, ...]) -> str:
        if not namespace:
            raise InvalidNamespaceError("the namespace is empty: its first label names the memory space")
        space = namespace[0]
        try:
            check_space(space)
        except ValueError as exc:
            raise InvalidNamespaceError(f"namespace {namespace}: its first label names the memory space: {exc}"
                                        ) from None
        if self.spaces is not None and space not in self.spaces:
            raise InvalidNamespaceError(f"namespace {namespace}: this store uses the spaces "
                                        f"{', '.join(self.spaces)}; start the namespace with one of them")
        return space

    def _every_space(self, conditions: Iterable[MatchCondition] = ()) -> list[str]:
        """The spaces a listing reads: the one a prefix names, else the allowed ones, else every space."""
        for condition in conditions:
            if condition.match_type == "prefix" and condition.path and condition.path[0] != "*":
                try:
                    return [self._space(tuple(condition.path))]
                except InvalidNamespaceError:
                    return []
        if self.spaces is not None:
            return self.spaces
        any_memory = next(iter(self._memories.values()), None) or self.memory("default")
        return [s.name for s in any_memory.spaces()]

    def _stored(self, space: str, labels: tuple[str, ...], exact: bool = False) -> list[_Stored]:
        """Every item document under (space, *labels), or of exactly that namespace with `exact`."""
        found = []
        for doc in self.memory(space).documents(source=source_of(labels)):
            meta = doc.metadata
            if meta.get("kind") != KIND or (exact and tuple(meta["namespace"]) != (space, *labels)):
                continue
            found.append(_Stored(doc.id, Item(value=meta["value"], key=meta["key"], namespace=tuple(meta["namespace"]),
                                              created_at=meta["created_at"], updated_at=meta["updated_at"]),
                                 meta.get("indexed", True)))
        return found

    def _items(self, space: str, labels: tuple[str, ...], exact: bool = False) -> list[_Stored]:
        """The items under (space, *labels), most recently updated first; of a key stored twice (a write that
        died between the new document and the old one's retraction), the later."""
        latest: dict[tuple[tuple[str, ...], str], _Stored] = {}
        for stored in self._stored(space, labels, exact):
            known = latest.get((stored.item.namespace, stored.item.key))
            if known is None or stored.item.updated_at >= known.item.updated_at:
                latest[(stored.item.namespace, stored.item.key)] = stored
        return sorted(latest.values(), key=lambda s: s.item.updated_at, reverse=True)

    # ----- reads -------------------------------------------------------------------------------
    def _get(self, op: GetOp) -> Item | None:
        space = self._space(op.namespace)
        return next((s.item for s in self._items(space, tuple(op.namespace[1:]), exact=True) if s.item.key == op.key),
                    None)

    def _search(self, op: SearchOp) -> list[SearchItem]:
        prefix = tuple(op.namespace_prefix)
        spaces = [self._space(prefix)] if prefix else self._every_space()
        candidates = [(space, s) for space in spaces for s in self._items(space, prefix[1:])
                      if _matches(s.item.value, op.filter)]
        if not op.query:
            return [SearchItem(namespace=s.item.namespace, key=s.item.key, value=s.item.value,
                               created_at=s.item.created_at, updated_at=s.item.updated_at)
                    for _, s in candidates[op.offset:op.offset + op.limit]]
        by_doc = {s.doc_id: s for _, s in candidates if s.indexed}
        best: dict[str, tuple[float, _Stored, dict]] = {}
        top_k = min(max(4 * (op.offset + op.limit), 20), 10_000)  # passages of other documents share the ranking
        for space in dict.fromkeys(space for space, s in candidates if s.indexed):
            for found in recall(self.memory(space), op.query, self.method, top_k, self.as_of, self.facts):
                stored = by_doc.get(found.metadata["doc_id"])
                if stored is not None and (stored.doc_id not in best or found.score > best[stored.doc_id][0]):
                    best[stored.doc_id] = (found.score, stored, found.metadata)
        ranked = sorted(best.values(), key=lambda b: b[0], reverse=True)[op.offset:op.offset + op.limit]
        return [MemorySearchItem(namespace=s.item.namespace, key=s.item.key, value=s.item.value,
                                 created_at=s.item.created_at, updated_at=s.item.updated_at, score=score,
                                 metadata=metadata) for score, s, metadata in ranked]

    def _list_namespaces(self, op: ListNamespacesOp) -> list[tuple[str, ...]]:
        conditions = op.match_conditions or ()
        found = {s.item.namespace for space in self._every_space(conditions) for s in self._items(space, ())}
        found = {ns for ns in found if all(_namespace_matches(c, ns) for c in conditions)}
        if op.max_depth is not None:
            found = {ns[:op.max_depth] for ns in found}
        return sorted(found)[op.offset:op.offset + op.limit]

    # ----- writes ------------------------------------------------------------------------------
    def _write(self, puts: list[PutOp]) -> None:
        by_space: dict[str, list[PutOp]] = {}
        for op in puts:
            by_space.setdefault(op.namespace[0], []).append(op)
        now = datetime.now(UTC).isoformat()
        for space, ops in by_space.items():
            stored: dict[tuple[tuple[str, ...], str], list[_Stored]] = {}
            for namespace in {tuple(op.namespace) for op in ops}:
                for found in self._stored(space, namespace[1:], exact=True):
                    stored.setdefault((namespace, found.item.key), []).append(found)
            documents, retracted = [], []
            for op in ops:
                old = stored.get((tuple(op.namespace), str(op.key)), [])
                retracted += [s.doc_id for s in old]
                if op.value is None:
                    continue
                created = min((s.item.created_at for s in old), default=None)
                document = self._document(op, created.isoformat() if created else now, now)
                if document.id in retracted:  # the same value again: nothing changes
                    retracted.remove(document.id)
                else:
                    documents.append(document)
            memory = self.memory(space)
            if documents:  # the new values first: a write that dies half-way leaves the old value, never none
                if self._extractor is None:
                    self._extractor = memory.extractor
                memory.extractor = self._extractor  # one extractor (spaCy) for every space
                memory.ingest(documents, progress=False)
            if retracted:
                memory.retract(retracted)

    def _document(self, op: PutOp, created: str, updated: str) -> Any:
        from memgraph_neo4j.ingest.document import Document  # the facade's input type

        value = dict(op.value)
        try:
            identity = json.dumps([list(op.namespace), str(op.key), value, op.index], sort_keys=True)
        except TypeError as exc:
            raise ValueError(f"the value of {op.namespace} {op.key!r} is not JSON: {exc}") from None
        return Document(id=hashlib.sha256(identity.encode()).hexdigest()[:32], title=str(op.key),
                        text=self._text(value, op.index), source=source_of(op.namespace[1:]),
                        metadata={"kind": KIND, "namespace": list(op.namespace), "key": str(op.key), "value": value,
                                  "indexed": op.index is not False, "created_at": created, "updated_at": updated})

    def _text(self, value: Mapping[str, Any], index: Any) -> str:
        """What is ingested of a value: the text at `index` (the put's paths, else the store's), else its string
        fields; its JSON when that is empty. An item put with index=False is ingested too, never searched."""
        paths = index if isinstance(index, list) else self.index
        if paths:
            texts = [t for path in paths for t in get_text_at_path(value, path)]
        else:
            texts = [v for v in value.values() if isinstance(v, str)]
        return "\n".join(t.strip() for t in texts if t.strip()) or json.dumps(value, sort_keys=True, ensure_ascii=False)


def _check_labels(op: Op) -> None:
    """Namespace labels are non-empty strings without '.' (sources are dotted) or NUL, as BaseStore checks them."""
    namespace = getattr(op, "namespace", None) or getattr(op, "namespace_prefix", None) or ()
    paths = [c.path for c in (getattr(op, "match_conditions", None) or ())] + [namespace]
    for path in paths:
        for label in path:
            if not isinstance(label, str) or not label or "." in label or "\x00" in label:
                raise InvalidNamespaceError(f"namespace label {label!r} in {tuple(path)}: labels are non-empty "
                                            "strings without '.' or NUL")


def _namespace_matches(condition: MatchCondition, namespace: tuple[str, ...]) -> bool:
    path = tuple(condition.path)
    if len(namespace) < len(path):
        return False
    part = namespace[:len(path)] if condition.match_type == "prefix" else namespace[len(namespace) - len(path):]
    return all(p == "*" or p == n for p, n in zip(path, part, strict=True))


OPERATORS = {"$eq": lambda a, b: a == b, "$ne": lambda a, b: a != b,
             "$gt": lambda a, b: float(a) > float(b), "$gte": lambda a, b: float(a) >= float(b),
             "$lt": lambda a, b: float(a) < float(b), "$lte": lambda a, b: float(a) <= float(b)}


def _matches(value: Any, filter: dict[str, Any] | None) -> bool:
    """LangGraph's filter: each key's value equal (nested mappings key by key), or compared by $eq, $ne, $gt,
    $gte, $lt, $lte."""
    return all(_compare(value.get(key) if isinstance(value, Mapping) else None, wanted)
               for key, wanted in (filter or {}).items())


def _compare(found: Any, wanted: Any) -> bool:
    if isinstance(wanted, Mapping):
        if any(str(k).startswith("$") for k in wanted):
            unknown = [k for k in wanted if k not in OPERATORS]
            if unknown:
                raise ValueError(f"filter operator {unknown[0]!r}: use one of {', '.join(OPERATORS)}")
            try:
                return found is not None and all(OPERATORS[k](found, v) for k, v in wanted.items())
            except (TypeError, ValueError):
                return False
        return isinstance(found, Mapping) and all(_compare(found.get(k), v) for k, v in wanted.items())
    return found == wanted
