// The delete of older versions: every node of the space, its ingest lease included, without taking it.
MATCH (n) WHERE n.space = $space
CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS
