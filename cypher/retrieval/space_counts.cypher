// Sizes that decide what retrieval may hold in process, read once per memory version: the vectors
// of one space's three layers (RetrievalConfig.snapshot_max_vectors), its passages (the N of IDF),
// and the passage-entity mentions of the whole database, from the count store without a scan: an
// upper bound for the space's seed statistics (RetrievalConfig.snapshot_max_mentions), and how many
// passages carry a page or heading, or are episodes.
// `id IS NOT NULL` (every node is MERGEd on its id) lets the planner seek the (space, id) key constraint's
// index for one space instead of scanning every space's nodes of the label: ~15 ms instead of ~300 ms
// with 100k facts in the database, paid by every one-shot `query`.
CALL () { MATCH (f:Fact) WHERE f.space = $space AND f.id IS NOT NULL RETURN count(f) AS facts }
CALL () { MATCH (s:Schema) WHERE s.space = $space AND s.id IS NOT NULL RETURN count(s) AS schemas }
CALL () { MATCH (p:Passage) WHERE p.space = $space AND p.id IS NOT NULL RETURN count(p) AS passages }
CALL () { MATCH ()-[r:MENTIONS]->() RETURN count(r) AS mentions }
// passages with a page or heading (PDF, HTML, DOCX), or episodes (their speaker and time name a hit):
// without any, hits need no provenance read
CALL () {
  MATCH (p:Passage) WHERE p.space = $space AND p.id IS NOT NULL
    AND (p.page IS NOT NULL OR p.heading IS NOT NULL OR p:Episode)
  RETURN count(p) AS located
}
RETURN facts + schemas + passages AS vectors, passages, mentions, located
