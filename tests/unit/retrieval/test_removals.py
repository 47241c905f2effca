"""Removals the change feed carries (a retraction's tombstones, repository/changes.py) and how each copy
applies them: a copy updated by removals equals one built from what is left."""

from __future__ import annotations

import numpy as np
import pytest

from memgraph_neo4j.config import RetrievalConfig
from memgraph_neo4j.repository.changes import ChangedEntity, ChangedFact, ChangedPassage, Changes, _removed
from memgraph_neo4j.repository.projections import projection_spec
from memgraph_neo4j.repository.statistics import SpaceMentions
from memgraph_neo4j.retrieval.ppr.graph_copy import GraphCopy
from memgraph_neo4j.retrieval.question_entities import TitleKeys
from memgraph_neo4j.retrieval.statistics import StatisticsSnapshot


def _graph(passages, entities, facts=()) -> Changes:
    return Changes(-1, 1, True, list(facts), [], list(passages), list(entities), ["Person"])


def test_a_graph_copy_updated_by_removals_equals_a_fresh_one():
    ada, bob = ChangedEntity("ada", "Ada", ("Person",), ()), ChangedEntity("bob", "Bob", ("Person",), (("ada", 0.9),))
    p1, p2 = ChangedPassage("p1", "One", ("ada",)), ChangedPassage("p2", "Two", ("ada", "bob"))
    spec = projection_spec(RetrievalConfig())
    copy = GraphCopy(spec)
    copy.apply(_graph([p1, p2], [ada, bob], [ChangedFact("f", "active", "knows", "bob", "ada")]))
    _ = copy.transition  # a base to take the removed owners' edges out of
    # p2 deleted, then bob (no passage names it; its fact retracted, stamped)
    copy.apply(Changes(1, 2, facts=[ChangedFact("f", "retracted", "knows", None, "ada")],
                       removed_passages=["p2"], removed_entities=["bob"]))
    fresh = GraphCopy(spec)
    fresh.apply(_graph([p1], [ada], [ChangedFact("f", "retracted", "knows", None, "ada")]))
    assert copy.edges() == fresh.edges()
    assert copy.nodes.row("entity", "bob") is None and copy.nodes.row("passage", "p2") is None  # seeds: no mass
    copy.apply(Changes(2, 3, passages=[p2], entities=[bob]))  # created again: new rows, edges back
    again = GraphCopy(spec)
    again.apply(_graph([p1, p2], [ada, bob], [ChangedFact("f", "retracted", "knows", None, "ada")]))
    assert copy.edges() == again.edges()


def test_statistics_and_titles_forget_a_removed_passage():
    snapshot = StatisticsSnapshot(SpaceMentions(["p1", "p2", "p2"], ["ada", "ada", "bob"], [["Person", 2]]), 2)
    snapshot.apply(Changes(1, 2, removed_passages=["p2"], type_degree=[("Person", 1)]))
    assert dict(snapshot.df) == {"ada": 1} and "p2" not in snapshot.entities_of
    assert snapshot.type_degree == {"Person": 1}
    titles = TitleKeys([("p1", "Ada Lovelace"), ("p2", "Bob")])
    titles.apply(Changes(1, 2, removed_passages=["p2"]))
    assert titles.by_key == TitleKeys([("p1", "Ada Lovelace")]).by_key  # no key left without passages


def test_a_node_created_again_wins_over_its_tombstone_and_the_counts_cancel():
    changes = Changes(5, 9, passages=[ChangedPassage("p1", None, ())])
    _removed(changes, [
        {"kind": "passage", "id": "p1", "old": True, "located": False, "again": False},  # deleted, created again
        {"kind": "passage", "id": "p2", "old": True, "located": True, "again": False},  # deleted
        {"kind": "passage", "id": "p3", "old": False, "located": False, "again": False},  # created after 5, gone
        {"kind": "entity", "id": "e1", "old": True, "located": False, "again": True}])  # entities are not counted
    assert (changes.removed_passages, changes.removed_entities) == (["p2", "p3"], ["e1"])
    assert (changes.gone_passages, changes.gone_located, changes.deleted_twice) == (2, 1, False)
    assert len(changes) == 4  # an upsert and three removals
    _removed(changes, [{"kind": "passage", "id": "p4", "old": True, "located": False, "again": True}])
    assert changes.deleted_twice  # deleted twice since 5: whether it existed at 5 is not known


def test_a_graph_copy_past_its_share_of_deleted_rows_is_read_again_whole(monkeypatch):
    """Rows of deleted nodes stay (a push form is corrected row by row), so a memory written and retracted in
    turn grew its copy without end; past DEAD_FRACTION of the rows the copy asks for a whole read."""
    from memgraph_neo4j.retrieval import changes as changes_module
    from memgraph_neo4j.retrieval.ppr import graph_copy

    monkeypatch.setattr(graph_copy, "DEAD_MIN", 2)
    spec = projection_spec(RetrievalConfig())
    passages = [ChangedPassage(f"p{i}", f"P{i}", ("ada",)) for i in range(8)]
    ada = ChangedEntity("ada", "Ada", ("Person",), ())
    live = list(passages)

    def build() -> GraphCopy:
        copy = GraphCopy(spec)
        copy.apply(_graph(live, [ada]))
        return copy

    class Feed:
        def since(self, version: int, to: int) -> Changes:
            gone = passages[version - 1]  # version v+1 deletes p(v-1)
            live.remove(gone)
            return Changes(version, version + 1, removed_passages=[gone.id])

    followed = changes_module.Followed(Feed(), build, GraphCopy.apply)
    followed.at(1)
    for version in (2, 3, 4):  # 3 of 10 rows dead: 30 % > 25 %, at the third deletion
        copy = followed.at(version)
    assert (followed.builds, followed.catch_ups) == (2, 2)
    assert copy.nodes.dead == 0 and len(copy.nodes) == 1 + 1 + 5  # the type, Ada and the 5 passages left
    assert copy.edges() == build().edges()


def _adjacency(copy: GraphCopy):
    """A as the copy serves it before any compaction: its base plus the delta it merged."""
    from scipy import sparse

    t = copy.transition
    n, n0 = t.shape[0], t.base.shape[0]
    base = sparse.vstack([sparse.csr_matrix((t.base.data, t.base.indices, t.base.indptr), shape=(n0, n)),
                          sparse.csr_matrix((n - n0, n))]).tocsr()
    return (base + t.delta_of(np.arange(n))).toarray(), t.degree


@pytest.mark.parametrize("compact_min", [2_048, 40], ids=["delta", "compacting"])
def test_the_merged_delta_serves_the_graph_a_fresh_copy_holds(monkeypatch, compact_min: int):
    """Writes applied one by one (new and changed facts, a fact retracted, passages, entities with bridges,
    removals) and the delta merged after each (GraphCopy._merged_delta, no pass over the changed owners):
    base + delta equals the adjacency and degrees of a copy built from the same graph at once, after every
    write, with the base compacted in between or not."""
    from memgraph_neo4j.retrieval.ppr import graph_copy

    monkeypatch.setattr(graph_copy, "COMPACT_MIN", compact_min)
    compactions, compact = [0], GraphCopy._compact

    def counted(self: GraphCopy) -> None:
        compactions[0] += self is copy
        compact(self)

    monkeypatch.setattr(GraphCopy, "_compact", counted)
    rng = np.random.default_rng(4)
    spec = projection_spec(RetrievalConfig())
    facts, passages, entities, removed = {}, {}, {}, []
    copy = GraphCopy(spec)
    copy.apply(_graph([], [ChangedEntity("e0", "E0", ("Person",), ())]))
    entities["e0"] = ChangedEntity("e0", "E0", ("Person",), ())
    for write in range(60):
        names = sorted(entities)
        new = [ChangedEntity(f"e{write}-{i}", "N", ("Person",) if i else ("Place",),
                             ((names[int(rng.integers(len(names)))], 0.91),) if i == 2 else ()) for i in range(3)]
        entities.update((e.id, e) for e in new)
        names = sorted(entities)
        pick = lambda: names[int(rng.integers(len(names)))]  # noqa: E731
        changed_facts = [ChangedFact(f"f{write}", "active", "knows", pick(), pick())]
        if facts and write % 4 == 0:  # an earlier fact retracted, another moved to pending
            old = sorted(facts)[int(rng.integers(len(facts)))]
            changed_facts.append(ChangedFact(old, "retracted" if write % 8 else "pending", "knows",
                                             facts[old].head_id, facts[old].tail_id))
        facts.update((f.id, f) for f in changed_facts)
        page = ChangedPassage(f"p{write}", "T", tuple(sorted({pick(), pick(), new[0].id})))
        passages[page.id] = page
        gone = []
        if write % 10 == 9:  # a passage deleted
            gone = [sorted(passages)[0]]
            passages.pop(gone[0])
        copy.apply(Changes(write, write + 1, facts=changed_facts, passages=[page], entities=new,
                           types=["Person", "Place"], removed_passages=gone))
        removed += gone
        fresh = GraphCopy(spec)
        fresh.apply(Changes(-1, write + 1, True, list(facts.values()), [], list(passages.values()),
                            list(entities.values()), ["Person", "Place"]))
        got, degree = _adjacency(copy)
        rows = {copy.nodes.ids[r]: r for r in range(len(copy.nodes)) if copy.nodes.names[r] is not None
                or copy.nodes.kinds[r] == 1}
        order = [rows[fresh.nodes.ids[r]] for r in range(len(fresh.nodes))]
        want, want_degree = _adjacency(fresh)
        assert np.abs(got[np.ix_(order, order)] - want).max() < 1e-12
        assert np.abs(degree[order] - want_degree).max() < 1e-12
    assert (compactions[0] > 1) == (compact_min == 40)  # the first: after the first read
