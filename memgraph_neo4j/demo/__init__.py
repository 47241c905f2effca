"""`memgraph-neo4j demo`: a small corpus shipped with the package (`corpus/`) and the run that builds a
memory from it, adjudicates its conflicts and answers questions with citations (`scenario.py`)."""
