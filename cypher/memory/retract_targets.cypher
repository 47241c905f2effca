// Retraction: the passages of these documents (what step 1 deletes, batch by batch).
UNWIND $doc_ids AS doc_id
MATCH (:Document {space: $space, id: doc_id})-[:HAS_PASSAGE]->(p:Passage)
RETURN p.id AS id
ORDER BY id
