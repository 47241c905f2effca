"""Promotion's transaction memory does not grow with how many schemas one batch promotes.

A 100k-passage build stopped at 54k: one batch's recount lifted 1,228 schemas over the bar with 42,601
pending facts, and promote_and_activate carried the list of promoted schemas in every fact's row, so its
memory grew with schemas x facts (1.4 GiB, the server's transaction limit; every retry failed).
"""

from __future__ import annotations

from memgraph_neo4j.repository.facts import promotion_params

FACTS = 4_000  # pending facts promoted at once; split over few or many schemas below


def _promote_profiled(store, space: str) -> tuple[dict, int]:
    """Run the library's promote_and_activate under PROFILE in one write transaction: (its row, the
    query's peak memory in bytes as the server tracks it)."""
    text = store.cypher.get("memory/promote_and_activate")
    params = dict(space=space, stamp=None, **promotion_params(1, None, True))

    def work(tx):
        result = tx.run("PROFILE " + text, params)
        row = result.single().data()
        return row, result.consume().profile["args"]["GlobalMemory"]

    with store.driver.session(database=store.database) as session:
        return session.execute_write(work)


def test_promotion_memory_is_flat_in_the_number_of_promoted_schemas(test_store, store, space):
    peaks = {}
    for n_schemas in (20, 400):
        part = f"{space}_{n_schemas}"
        try:
            test_store.write("promotion_load", space=part, schemas=n_schemas, facts=FACTS // n_schemas)
            row, peaks[n_schemas] = _promote_profiled(store, part)
            assert row == {"promoted": n_schemas, "activated": FACTS, "min_frequency": 1, "below": 0}
            states = test_store.read("promotion_states", space=part)
            # every fact active, waiting for the conflict check, and no Unpromoted mark left
            assert states == [{"state": "active", "facts": FACTS, "unpromoted": 0, "unchecked": FACTS}]
        finally:
            test_store.run_implicit("delete_space_unlocked", space=part)
    # the old statement: 5.7 MB at 20 schemas x 4,000 facts' rows... 45.9 MB at 400 (29 bytes a pair);
    # this one 0.4 MB at both
    assert peaks[400] <= 1.5 * peaks[20] + 1_000_000, peaks


def test_the_bar_counts_undeclared_supported_schemas_from_the_index_alone(test_store, store, space):
    """The percentile rule's bar is one above the frequency at the percentile of the undeclared schemas with
    support: declared schemas and those at frequency 0 are not counted, whatever their frequency. The
    frequencies come from the schema_support index, with no read of a schema's `declared` (10 ms a write on
    MuSiQue's 9k schemas when it was read from each node)."""
    undeclared = [1, 1, 1, 1, 1, 2, 2, 3, 5, 8]
    rows = ([{"id": f"u{i}", "frequency": f, "declared": False, "state": "candidate"} for i, f in enumerate(undeclared)]
            + [{"id": f"d{i}", "frequency": 40, "declared": True, "state": "stable"} for i in range(30)]
            + [{"id": f"z{i}", "frequency": 0, "declared": False, "state": "candidate"} for i in range(30)])
    try:
        test_store.write("promotion_bar_load", space=space, rows=rows)
        for percentile in (0.2, 0.5, 0.8):
            # the server's percentileDisc over the undeclared schemas' frequencies alone, plus one
            expected = test_store.read("percentile_of", values=undeclared, percentile=percentile)[0]["value"] + 1
            text = store.cypher.get("memory/promote_and_activate")
            params = dict(space=space, stamp=None, **promotion_params(None, percentile, True))

            def work(tx, text=text, params=params):
                result = tx.run("PROFILE " + text, params)
                row = result.single().data()
                plan = result.consume().profile
                tx.rollback()
                return row, plan

            with store.driver.session(database=store.database) as session:
                tx = session.begin_transaction()
                row, plan = work(tx)
            assert row["min_frequency"] == expected, (percentile, row)
            reads = [p for p in _operators(plan) if p["operatorType"].startswith("NodeIndexSeek")
                     and "declared" in p["args"].get("Details", "")]
            assert reads, "the bar's schemas were not sought on (space, declared, frequency)"
            assert not [p for p in _operators(plan) if "u.declared" in p["args"].get("Details", "")
                        and p["operatorType"].startswith("Filter")], "`declared` read from each schema"
    finally:
        test_store.run_implicit("delete_space_unlocked", space=space)


def _operators(plan) -> list:
    return [plan] + [op for child in plan.get("children", []) for op in _operators(child)]
