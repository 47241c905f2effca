// Documents (idempotent on content-hash ids).
UNWIND $rows AS row
MERGE (d:Document {space: $space, id: row.id})
ON CREATE SET d.created_at = datetime()
SET d.title = row.title, d.source = row.source, d.metadata = row.metadata, d.chars = row.chars
