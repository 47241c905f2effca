"""Forward push with absorbing hubs (retrieval/ppr/push.py) against the power iteration's fixed point."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import sparse

from memgraph_neo4j.retrieval.ppr import local as ppr_local
from memgraph_neo4j.retrieval.ppr import push, push_update

EPSILON = 1e-8


def hubbed_graph(n: int = 3000, hub_count: int = 4, seed: int = 7) -> ppr_local.LocalGraph:
    """Sparse undirected graph: a ring of local links plus random ones, and a few hubs joined to a third
    of the nodes each (as Type nodes are joined to their entities)."""
    rng = np.random.default_rng(seed)
    sources = [np.arange(n), rng.integers(0, n, n)]
    targets = [(np.arange(n) + 1) % n, rng.integers(0, n, n)]
    for hub in range(hub_count):
        members = rng.choice(np.arange(hub_count, n), n // 3, replace=False)
        sources.append(np.full(len(members), hub))
        targets.append(members)
    s, t = np.concatenate(sources), np.concatenate(targets)
    keep = s != t
    s, t = s[keep], t[keep]
    w = rng.uniform(0.3, 1.0, len(s))
    nodes = ppr_local.NodeTable(list(range(n)), ["entity"] * n, [f"e{i}" for i in range(n)], [None] * n)
    return ppr_local.build_local_graph(nodes, list(np.concatenate([s, t])), list(np.concatenate([t, s])),
                                       list(np.concatenate([w, w])))


def fixed_point(graph: ppr_local.LocalGraph, teleport: np.ndarray) -> np.ndarray:
    return ppr_local.personalized_pagerank(graph.transition_t, teleport, 0.5, 500, 0.0)


def test_hubs_are_the_nodes_over_sqrt_entries():
    graph = hubbed_graph()
    pg = push.build_push_graph(graph.transition_t, graph.degree, 0.5, 1e-12)
    assert sorted(pg.hubs.tolist()) == [0, 1, 2, 3]
    assert pg.absorbing.sum() == 4 and pg.hub_scores.shape == (4, 3000)  # one hub per row
    # each hub vector is that hub's own personalised PageRank
    e0 = np.zeros(3000)
    e0[0] = 1.0
    assert pg.hub_scores[0] == pytest.approx(fixed_point(graph, e0), abs=1e-7)


def test_push_is_within_its_bound_below_the_fixed_point():
    graph = hubbed_graph()
    pg = push.build_push_graph(graph.transition_t, graph.degree, 0.5, 1e-12)
    rng = np.random.default_rng(1)
    teleport = np.zeros(3000)
    teleport[rng.choice(3000, 40, replace=False)] = rng.uniform(0.1, 1.0, 40)
    teleport[1] += 0.5  # a hub seeds too (as Type seeds do)
    exact = fixed_point(graph, teleport)
    got = push.push_pagerank(pg, teleport, 0.5, EPSILON)
    bound = EPSILON * teleport.sum() * graph.degree
    assert np.all(exact - got <= bound + 1e-7)  # 1e-7: the hub vectors are float32
    assert np.all(got - exact <= 1e-7)  # never above it, but for float32 rounding
    assert np.abs(exact - got).max() > 0  # the bound is what it spends: push stops before the fixed point
    order = np.argsort(-exact)[:10]
    assert np.argsort(-got)[:10].tolist() == order.tolist()


def test_a_looser_epsilon_moves_further_from_the_fixed_point():
    graph = hubbed_graph()
    pg = push.build_push_graph(graph.transition_t, graph.degree, 0.5, 1e-12)
    teleport = np.zeros(3000)
    teleport[[10, 500, 2900]] = [1.0, 0.5, 0.25]
    exact = fixed_point(graph, teleport)
    tight = np.abs(push.push_pagerank(pg, teleport, 0.5, 1e-10) - exact).max()
    loose = np.abs(push.push_pagerank(pg, teleport, 0.5, 1e-4) - exact).max()
    assert tight < 1e-7 < loose


def test_no_hubs_dangling_nodes_and_no_seeds():
    # path a - b - c plus an isolated d: no node has more than sqrt(4) entries, d has none
    nodes = ppr_local.NodeTable([1, 2, 3, 4], ["entity"] * 4, list("abcd"), [None] * 4)
    graph = ppr_local.build_local_graph(nodes, [1, 2, 2, 3], [2, 1, 3, 2], [1.0, 1.0, 3.0, 3.0])
    pg = push.build_push_graph(graph.transition_t, graph.degree, 0.5, 1e-12)
    assert len(pg.hubs) == 0
    teleport = np.array([1.0, 0.0, 0.0, 0.5])
    got = push.push_pagerank(pg, teleport, 0.5, 1e-12)
    assert got == pytest.approx(fixed_point(graph, teleport), abs=1e-10)
    assert got[3] == pytest.approx(0.25)  # d keeps (1-d) of its seed; the rest has nowhere to go
    assert not push.push_pagerank(pg, np.zeros(4), 0.5, 1e-8).any()


def test_bad_push_settings_are_named():
    from memgraph_neo4j.config import RetrievalConfig

    with pytest.raises(ValueError, match="push_epsilon must be in"):
        RetrievalConfig(push_epsilon=0)
    with pytest.raises(ValueError, match="push_min_relationships must be >= 0"):
        RetrievalConfig(push_min_relationships=-1)


def _graph(s: np.ndarray, t: np.ndarray, w: np.ndarray, n: int) -> ppr_local.LocalGraph:
    nodes = ppr_local.NodeTable(list(range(n)), ["entity"] * n, [f"e{i}" for i in range(n)], [None] * n)
    return ppr_local.build_local_graph(nodes, list(np.concatenate([s, t])), list(np.concatenate([t, s])),
                                       list(np.concatenate([w, w])))


def served(form: push.PushGraph) -> np.ndarray:
    """The hub vectors as push_pagerank adds them (n, hubs): G_h, and at the hub rows what the residual
    owes them."""
    scores = form.hub_scores.T.copy()
    scores[form.hubs] += form.hub_owed
    return scores


def ranked(n: int, hubs: bool, hub_count: int = 4) -> np.ndarray:
    """Per node: a ranking reports its score (all, or all but the hubs 0..hub_count-1, as Type nodes)."""
    out = np.ones(n, dtype=bool)
    out[:hub_count] = hubs
    return out


def whole_residual(form: push.PushGraph, a: sparse.csr_matrix) -> np.ndarray:
    """The hub vectors' residual, explicit plus lazy: lazy[h, q]·A[hubs[q]] (push_update.py)."""
    n = form.degree.shape[0]
    return form.residual[:, :n] + form.lazy @ a[form.hubs].toarray()


def true_residual(form: push.PushGraph, graph: ppr_local.LocalGraph) -> np.ndarray:
    """What each hub vector lacks, from its definition: ((1-d)·e_h + d·Pᵀ·G_h - G_h) / (1-d), d = 0.5."""
    n = graph.transition_t.shape[0]
    seeds = np.zeros((len(form.hubs), n))
    seeds[np.arange(len(form.hubs)), form.hubs] = 1.0
    scores = form.hub_scores[:, :n]
    return (0.5 * seeds + 0.5 * (graph.transition_t @ scores.T).T - scores) / 0.5


@pytest.mark.parametrize("hubs_ranked", [False, True], ids=["types", "ranked-hubs"])
def test_updated_hub_vectors_equal_built_ones_over_many_changes(hubs_ranked: bool):
    """A change (edges added and removed, new nodes joined to a hub, as a write adds entities of a type)
    corrects the hub vectors from the rows it touched (update_push_graph); over 25 changes they and the
    rankings stay within 1e-6 of a form built afresh, the error does not grow with the changes, and P is
    the one built afresh. Hubs no ranking reports (Type nodes) hold their rows' renormalisation as lazy
    coefficients; ranked hubs (whose rows the residual corrects, hub_rows_owed) write it out every time."""
    from memgraph_neo4j.retrieval.ppr.graph_copy import symmetric

    rng = np.random.default_rng(3)
    n, hub_count = 3000, 4
    s = np.concatenate([np.arange(n), rng.integers(hub_count, n, n)]
                       + [np.full(n // 3, h) for h in range(hub_count)])
    t = np.concatenate([(np.arange(n) + 1) % n, rng.integers(hub_count, n, n)]
                       + [rng.choice(np.arange(hub_count, n), n // 3, replace=False) for _ in range(hub_count)])
    keep = s != t
    s, t = s[keep], t[keep]
    w = rng.uniform(0.3, 1.0, len(s))
    graph = _graph(s, t, w, n)
    form = push.build_push_graph(graph.transition_t, graph.degree, 0.5, 1e-7, reported=ranked(n, hubs_ranked))
    errors, lazies = [], 0
    for _ in range(25):
        new = np.arange(n, n + 3)  # three new nodes, each joined to a hub and to an old node
        gone = rng.choice(len(s), 2, replace=False)  # two edges gone (a fact retracted)
        added_t = np.concatenate([rng.integers(0, hub_count, 3), rng.integers(hub_count, n, 3)])
        rows = np.unique(np.concatenate([s[gone], t[gone], new, added_t]))
        s = np.concatenate([np.delete(s, gone), new, new])
        t = np.concatenate([np.delete(t, gone), added_t])
        w = np.concatenate([np.delete(w, gone), rng.uniform(0.3, 1.0, 6)])
        n += 3
        graph = _graph(s, t, w, n)
        a = symmetric(np.stack([s, t], axis=1), w, n)
        before = form.hub_scores
        form = push_update.update_push_graph(form, rows, a[rows], graph.degree, 0.5, EPSILON,
                                             ranked(n, hubs_ranked))
        # corrected in place: the blocks grow inside the buffer the build left room in (no 2 x hubs x n copy)
        assert np.shares_memory(before, form.hub_scores)
        # every node within its threshold, though the push looked only where the change moved something:
        # the explicit residual below its share, the lazy one at most max|lazy|·degree (push_update.py)
        assert (np.abs(form.residual) <= (1 - push.LAZY_SHARE) * EPSILON * graph.degree).all()
        assert (np.abs(form.lazy) <= push.LAZY_SHARE * EPSILON).all()
        lazies += bool(form.lazy.any())
        whole = whole_residual(form, a)
        assert np.abs(whole - true_residual(form, graph)).max() < 1e-13  # the bookkeeping is exact
        assert (np.abs(whole) <= EPSILON * graph.degree).all()
        built = push.build_push_graph(graph.transition_t, graph.degree, 0.5, 1e-7, reported=ranked(n, hubs_ranked))
        assert sorted(form.hubs.tolist()) == sorted(built.hubs.tolist()) == list(range(hub_count))
        assert abs(form.transition.to_csr() - built.transition.to_csr()).max() < 1e-12
        order = [form.hubs.tolist().index(h) for h in built.hubs.tolist()]
        shown = ranked(n, hubs_ranked)  # an unranked hub's own row is within epsilon·its degree, not 1e-6
        errors.append(float(np.abs(served(form)[shown][:, order] - served(built)[shown]).max()))
    assert max(errors) < 1e-6 and max(errors[-5:]) <= 2 * max(errors[:5]) + 1e-8
    # hub rows' renormalisations held as coefficients, not written out each time (none where hubs are ranked)
    assert bool(lazies) != hubs_ranked
    teleport = np.zeros(n)
    teleport[rng.choice(n, 40, replace=False)] = rng.uniform(0.1, 1.0, 40)
    assert push.push_pagerank(form, teleport, 0.5, EPSILON)[shown] == pytest.approx(
        push.push_pagerank(built, teleport, 0.5, EPSILON)[shown], abs=1e-6)


def test_other_hubs_are_built_afresh():
    """The counts moved across sqrt(entries): no correction (None), the engine builds the form."""
    from memgraph_neo4j.retrieval.ppr.graph_copy import symmetric

    graph = hubbed_graph()
    form = push.build_push_graph(graph.transition_t, graph.degree, 0.5, 1e-7)
    a = sparse.csr_matrix((3000, 3000))  # every edge gone: no hub is left
    assert push_update.update_push_graph(form, np.arange(3000), a, np.zeros(3000), 0.5, EPSILON) is None
    assert symmetric  # (the same helper the engine's copy builds A with)


def test_grown_widens_in_place_while_there_is_room():
    block = push.grown(np.arange(12.0).reshape(3, 4), 4)  # a new buffer, with room
    assert block.shape == (3, 4) and block.base.shape[1] >= 4 + 1024
    wider = push.grown(block, 9)
    assert np.shares_memory(block, wider) and wider.shape == (3, 9)
    assert wider[:, :4].tolist() == np.arange(12.0).reshape(3, 4).tolist() and not wider[:, 4:].any()
    beyond = push.grown(wider, wider.base.shape[1] + 1)  # past the room: a new buffer
    assert not np.shares_memory(wider, beyond) and beyond[:, :9].tolist() == wider.tolist()
    assert not beyond[:, 9:].any()


def test_hub_rows_owed_in_blocks_equals_the_whole_product(monkeypatch):
    rng = np.random.default_rng(5)
    n, hubs = 1000, np.array([3, 17, 400])
    scores, residual = rng.random((3, n)), rng.normal(0, 1e-6, (3, n))
    degree = rng.uniform(0, 5, n)
    degree[::7] = 0  # isolated nodes: no inverse
    inverse = np.divide(1.0, degree, out=np.zeros(n), where=degree > 0)
    whole = degree[hubs][:, None] * ((scores * inverse) @ residual.T)
    monkeypatch.setattr(push, "OWED_BLOCK", 64)
    assert push.hub_rows_owed(scores, residual, degree, hubs) == pytest.approx(whole, rel=1e-12, abs=1e-18)


def test_the_hub_rows_correction_is_skipped_only_where_no_score_is_reported():
    """The Type hubs of a space are never ranked: their rows' correction (a hubs x n product per write) is
    left out, and every other node's score is the one the whole form gives, built or corrected."""
    graph = hubbed_graph()
    reported = np.ones(3000, dtype=bool)
    reported[[0, 2]] = False  # two of the four hubs are of a kind no ranking reports
    whole = push.build_push_graph(graph.transition_t, graph.degree, 0.5, 1e-7)
    lean = push.build_push_graph(graph.transition_t, graph.degree, 0.5, 1e-7, reported=reported)
    skipped = [lean.hubs.tolist().index(h) for h in (0, 2)]
    assert np.count_nonzero(whole.hub_owed) and not lean.hub_owed[skipped].any() and lean.hub_owed.any()
    rng = np.random.default_rng(2)
    teleport = np.zeros(3000)
    teleport[rng.choice(3000, 40, replace=False)] = rng.uniform(0.1, 1.0, 40)
    teleport[[0, 1]] += 0.5  # hubs seed too
    a = sparse.csr_matrix(sparse.diags(graph.degree) @ graph.transition_t.T)  # A, unchanged: rows 5, 9 "touched"
    for form in (lean, push_update.update_push_graph(lean, np.array([5, 9]), a[[5, 9]], graph.degree, 0.5, EPSILON,
                                              reported)):
        got, full = push.push_pagerank(form, teleport, 0.5, EPSILON), push.push_pagerank(whole, teleport, 0.5, EPSILON)
        assert got[reported] == pytest.approx(full[reported], abs=1e-9) and np.abs(got - full).max() > 1e-9


def test_the_hub_set_is_told_from_the_touched_rows_as_a_whole_count_tells_it():
    """push_update.same_hubs answers from the rows a change touched while its bound holds, else from a pass
    over every row: either way what ppr/push.hub_rows over all counts says, over random changes that keep
    and that break the hub set; its bound on the rows that are not hubs always holds."""
    from memgraph_neo4j.retrieval.ppr.slotted import SlottedRows

    rng = np.random.default_rng(11)
    kept = broken = 0
    for trial in range(300):
        n = int(rng.integers(20, 200))
        counts = rng.integers(0, 12, n)
        counts[rng.choice(n, int(rng.integers(0, 5)), replace=False)] = rng.integers(20, 80)
        matrix = sparse.csr_matrix((np.ones(int(counts.sum())),
                                    np.concatenate([rng.choice(n + 100, c, replace=False) for c in counts]),
                                    np.concatenate([[0], np.cumsum(counts)])), shape=(n, n + 100))
        p = SlottedRows.from_csr(matrix)
        hubs = push.hub_rows(p.counts())
        rest = np.delete(p.counts(), hubs)
        form = push.PushGraph(p, np.ones(n), hubs, np.zeros(n, dtype=bool), np.zeros((len(hubs), n)),
                              entries=int(counts.sum()), below=int(rest.max(initial=0)))
        appended = n + np.arange(int(rng.integers(0, 3)))  # new nodes' rows
        rows = np.unique(np.concatenate([rng.choice(n, int(rng.integers(1, 6))), appended]))
        lengths = rng.integers(0, 90 if trial % 3 == 0 else 12, len(rows))
        same, entries, below = push_update.same_hubs(form, rows, lengths)
        after = np.zeros(rows.max() + 1 if rows.max() >= n else n, dtype=np.int64)
        after[:n] = p.counts()
        after[rows] = lengths
        expected = push.hub_rows(after)
        assert same == ({int(h) for h in hubs} == {int(h) for h in expected})
        assert entries == after.sum()
        if same:
            assert below >= np.delete(after, hubs).max(initial=0)
        kept, broken = kept + same, broken + (not same)
    assert kept > 50 and broken > 50
