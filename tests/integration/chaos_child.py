"""One ingest of chaos documents for tests/integration/test_chaos.py, in its own process so that the
test can SIGKILL it mid-batch.

    python chaos_child.py URI PASSWORD SPACE DOC_INDEXES THRESHOLD [DIE_AFTER]

DOC_INDEXES: comma-separated numbers of chaos_space.corpus(). DIE_AFTER n: the process SIGKILLs itself
right after its n-th committed write transaction (kill_resume_child.die_after). THRESHOLD: the
promotion threshold, or "-" for the ontology's percentile rule. Exit code 0 when the
ingest finished.
"""

from __future__ import annotations

import sys

from chaos_space import BATCH, corpus, memory
from kill_resume_child import die_after


def main() -> None:
    uri, password, space, indexes, threshold = sys.argv[1:6]
    if len(sys.argv) > 6:
        die_after(int(sys.argv[6]))
    from neo4j import GraphDatabase

    from memgraph_neo4j.embeddings import make_embedder
    from memgraph_neo4j.store import GraphStore

    docs = corpus()
    driver = GraphDatabase.driver(uri, auth=("neo4j", password), max_transaction_retry_time=5.0)
    with GraphStore(driver, uri=uri) as store:
        chosen = [docs[int(i)] for i in indexes.split(",")]
        memory(store, space, make_embedder("minilm"), threshold=None if threshold == "-" else int(threshold)).ingest(
            chosen, batch_size=BATCH, progress=False)


if __name__ == "__main__":
    main()
