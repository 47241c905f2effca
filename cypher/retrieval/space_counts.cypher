// Sizes that decide what retrieval may hold in process, read once per memory version: the vectors
// of one space's three layers (RetrievalConfig.snapshot_max_vectors), its passages (the N of IDF),
// and the passage-entity mentions of the whole database, from the count store without a scan: an
// upper bound for the space's seed statistics (RetrievalConfig.snapshot_max_mentions), and how many
// passages carry a page or heading.
CALL () { MATCH (f:Fact {space: $space}) RETURN count(f) AS facts }
CALL () { MATCH (s:Schema {space: $space}) RETURN count(s) AS schemas }
CALL () { MATCH (p:Passage {space: $space}) RETURN count(p) AS passages }
CALL () { MATCH ()-[r:MENTIONS]->() RETURN count(r) AS mentions }
// passages with a page or heading (PDF, HTML, DOCX): without any, hits need no provenance read
CALL () { MATCH (p:Passage {space: $space}) WHERE p.page IS NOT NULL OR p.heading IS NOT NULL RETURN count(p) AS located }
RETURN facts + schemas + passages AS vectors, passages, mentions, located
