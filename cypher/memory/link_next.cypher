// NEXT edges between consecutive passages of a document.
UNWIND $rows AS row
MATCH (a:Passage {space: $space, id: row.from}), (b:Passage {space: $space, id: row.to})
MERGE (a)-[:NEXT]->(b)
