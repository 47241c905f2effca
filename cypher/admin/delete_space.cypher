// Remove everything one memory space holds, in batches.
MATCH (n) WHERE n.space = $space
CALL (n) { DETACH DELETE n } IN TRANSACTIONS OF 5000 ROWS
