// Extraction outcome per passage; a failed chunk keeps its error and is retried on the next ingest.
UNWIND $rows AS row
MATCH (p:Passage {space: $space, id: row.passage_id})
SET p.extraction = row.state, p.extraction_error = row.error, p.extraction_attempts = row.attempts,
    p.extractor = row.extractor, p.model = row.model
