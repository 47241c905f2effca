// How many vectors the three layers of one space hold: decides whether the retriever may keep an
// in-process copy of them (RetrievalConfig.snapshot_max_vectors).
CALL () { MATCH (f:Fact {space: $space}) RETURN count(f) AS facts }
CALL () { MATCH (s:Schema {space: $space}) RETURN count(s) AS schemas }
CALL () { MATCH (p:Passage {space: $space}) RETURN count(p) AS passages }
RETURN facts + schemas + passages AS vectors
