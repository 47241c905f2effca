// Chunks whose extraction failed (timeouts, invalid JSON after repair): retried on the next ingest.
MATCH (p:Passage {space: $space, extraction: $failed})
RETURN p.id AS passage_id, p.doc_id AS doc_id, p.extraction_error AS error, p.extraction_attempts AS attempts
ORDER BY doc_id, passage_id
LIMIT $limit
