// Per-document ingest status, from its passages' extraction states: `ingesting` while a passage waits
// for extraction, `partial` when every passage was tried and some failed (retried on the next ingest),
// `done` when all succeeded. Written in the transaction of each batch that touched the document.
UNWIND $doc_ids AS doc_id
MATCH (d:Document {space: $space, id: doc_id})
OPTIONAL MATCH (d)-[:HAS_PASSAGE]->(p:Passage)
WITH d, sum(CASE WHEN p.extraction = $pending THEN 1 ELSE 0 END) AS waiting,
     sum(CASE WHEN p.extraction = $failed THEN 1 ELSE 0 END) AS failed
SET d.status = CASE WHEN waiting > 0 THEN $ingesting WHEN failed > 0 THEN $partial ELSE $done END
