"""ppr/slotted.SlottedRows: rows replaced in place, moved when they outgrow their slot, compacted; always
the matrix a CSR built afresh holds."""

import numpy as np
from scipy import sparse

from memgraph_neo4j.retrieval.ppr.slotted import SlottedRows, widened


def _random_rows(rng, rows, n, most):
    lengths = rng.integers(0, most, len(rows))
    indptr = np.concatenate([[0], np.cumsum(lengths)])
    indices = np.concatenate([np.sort(rng.choice(n, k, replace=False)) for k in lengths]).astype(np.int32)
    return sparse.csr_matrix((rng.uniform(0.1, 1.0, indptr[-1]), indices, indptr), shape=(len(rows), n))


def test_replaced_rows_equal_a_matrix_built_afresh_over_many_changes():
    """Random changes (rows shrinking, growing past their slot, new rows appended, a hub row growing each
    time): after each one the matrix is the CSR a rebuild gives, rows stay sorted, and the compactions
    keep dead entries at most the live slots'."""
    rng = np.random.default_rng(11)
    n = 400
    whole = sparse.random(n, n, density=0.02, random_state=3, format="csr")
    whole.sort_indices()
    rows_matrix = SlottedRows.from_csr(whole.copy())
    compactions = 0
    for step in range(60):
        grown_to = whole.shape[0] + int(rng.integers(0, 4))
        changed = np.unique(np.concatenate([rng.choice(whole.shape[0], 5, replace=False),
                                            np.arange(whole.shape[0], grown_to), [0]]))  # row 0: a growing hub
        new = _random_rows(rng, changed, grown_to, 12)
        hub = sparse.csr_matrix((np.ones(step + 20), (np.zeros(step + 20, dtype=int), np.arange(step + 20))),
                                shape=(1, grown_to))
        new = sparse.vstack([hub, new[1:]]).tocsr()
        expected = sparse.lil_matrix((grown_to, grown_to))
        expected[: whole.shape[0], : whole.shape[1]] = whole
        expected[changed] = new
        whole = expected.tocsr()
        dead_before = rows_matrix.dead
        rows_matrix.replace(changed, new, grown_to)
        compactions += rows_matrix.dead < dead_before
        got = rows_matrix.to_csr()
        assert got.shape == whole.shape and abs(got - whole).max() == 0 and got.nnz == whole.nnz
        assert rows_matrix.nnz == whole.nnz
        for u in changed:
            row = rows_matrix.indices[rows_matrix.start[u]:rows_matrix.end[u]]
            assert (np.diff(row) > 0).all()
        assert rows_matrix.dead <= rows_matrix.used - rows_matrix.dead + rows_matrix.room.max()
    assert compactions >= 1


def test_a_row_that_fits_its_slot_is_written_in_place():
    matrix = sparse.csr_matrix(np.array([[0, 1.0, 2.0], [3.0, 0, 0], [0, 0, 4.0]]))
    rows = SlottedRows.from_csr(matrix)
    indices, used = rows.indices, rows.used
    rows.replace(np.array([0]), sparse.csr_matrix(np.array([[5.0, 0, 0]])), 3)  # 2 entries -> 1: fits
    assert rows.used == used and rows.indices is indices and rows.dead == 0
    rows.replace(np.array([1]), sparse.csr_matrix(np.array([[1.0, 2.0, 3.0]])), 3)  # 1 -> 3: moves to the tail
    assert rows.start[1] == used and rows.dead == 1 and rows.room[1] >= 3 + 2
    assert rows.to_csr().toarray().tolist() == [[5.0, 0, 0], [1.0, 2.0, 3.0], [0, 0, 4.0]]
    rows.compact()
    assert rows.dead == 0 and rows.to_csr().toarray().tolist() == [[5.0, 0, 0], [1.0, 2.0, 3.0], [0, 0, 4.0]]


def test_widened_lengthens_in_place_while_there_is_room():
    a = widened(np.arange(5), 5)
    b = widened(a, 9)
    assert np.shares_memory(a, b) and b.tolist() == [0, 1, 2, 3, 4, 0, 0, 0, 0]
    c = widened(b, len(b.base) + 1)
    assert not np.shares_memory(b, c) and c[:9].tolist() == b.tolist() and not c[9:].any()
