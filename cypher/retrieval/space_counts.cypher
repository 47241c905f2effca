// Sizes that decide what retrieval may hold in process, read once per memory version: the vectors
// of one space's three layers (RetrievalConfig.snapshot_max_vectors), its passages (the N of IDF),
// and the passage-entity mentions of the whole database, from the count store without a scan: an
// upper bound for the space's seed statistics (RetrievalConfig.snapshot_max_mentions).
CALL () { MATCH (f:Fact {space: $space}) RETURN count(f) AS facts }
CALL () { MATCH (s:Schema {space: $space}) RETURN count(s) AS schemas }
CALL () { MATCH (p:Passage {space: $space}) RETURN count(p) AS passages }
CALL () { MATCH ()-[r:MENTIONS]->() RETURN count(r) AS mentions }
RETURN facts + schemas + passages AS vectors, passages, mentions
