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
