// The documents of a space in ingest order: title, source, passages, the facts their passages
// evidence (any state), when ingested; $skip/$limit page through them, `total` counts them all.
// $source (or null: all): only the documents whose source starts with it, with their metadata.
CALL () {
  MATCH (d:Document {space: $space})
  WHERE $source IS NULL OR d.source STARTS WITH $source
  RETURN count(d) AS total
}
MATCH (d:Document {space: $space})
WHERE $source IS NULL OR d.source STARTS WITH $source
WITH d, total
ORDER BY d.created_at, d.id
SKIP $skip LIMIT $limit
RETURN d.id AS id, d.title AS title, d.source AS source, toString(d.created_at) AS ingested_at,
       COUNT { (d)-[:HAS_PASSAGE]->(:Passage) } AS passages,
       COUNT { MATCH (d)-[:HAS_PASSAGE]->(:Passage)<-[:EVIDENCED_BY]-(f:Fact) RETURN DISTINCT f } AS facts,
       d.metadata AS metadata, total
