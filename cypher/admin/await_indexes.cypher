// Wait until every index is ONLINE (after init or a bulk load).
CALL db.awaitIndexes($timeout)
