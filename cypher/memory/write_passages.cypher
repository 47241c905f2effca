// Passages with character offsets into their document, their provenance (page, page_end, heading:
// null for documents without pages or headings) and their embeddings.
UNWIND $rows AS row
MATCH (d:Document {space: $space, id: row.doc_id})
MERGE (p:Passage {space: $space, id: row.id})
ON CREATE SET p.created_at = datetime(), p.extraction = $pending
SET p.doc_id = row.doc_id, p.index = row.index, p.title = row.title, p.text = row.text,
    p.start = row.start, p.end = row.end, p.embedding = row.embedding,
    p.page = row.page, p.page_end = row.page_end, p.heading = row.heading
MERGE (d)-[:HAS_PASSAGE]->(p)
