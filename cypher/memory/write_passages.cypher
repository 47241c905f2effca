// Passages with character offsets into their document, their provenance (page, page_end, heading:
// null for documents without pages or headings; sections: JSON of where the page or heading changes inside it), their embeddings and the normalised title
// (title_key: the passage_title_key index matches the question's names against it).
UNWIND $rows AS row
MATCH (d:Document {space: $space, id: row.doc_id})
MERGE (p:Passage {space: $space, id: row.id})
ON CREATE SET p.created_at = datetime(), p.extraction = $pending, p.created = $stamp  // new: space counts
SET p.doc_id = row.doc_id, p.index = row.index, p.title = row.title, p.title_key = row.title_key,
    p.text = row.text, p.start = row.start, p.end = row.end, p.embedding = row.embedding,
    p.page = row.page, p.page_end = row.page_end, p.heading = row.heading, p.sections = row.sections,
    p.changed = coalesce($stamp, p.changed)  // repository/batch.py: what retrieval copies read back
MERGE (d)-[:HAS_PASSAGE]->(p)
