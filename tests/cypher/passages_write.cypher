UNWIND $rows AS row
MERGE (p:Passage {space: $space, id: row.id})
SET p.text = row.text, p.title = row.title, p.embedding = row.embedding
