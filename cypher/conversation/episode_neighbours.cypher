// Context expansion: the messages right before and after each episode in its session (NEXT edges
// link consecutive passages of a document). Per episode: previous and next id (null at the ends).
UNWIND $ids AS id
MATCH (p:Passage {space: $space, id: id})
OPTIONAL MATCH (before:Passage)-[:NEXT]->(p)
OPTIONAL MATCH (p)-[:NEXT]->(after:Passage)
RETURN id, before.id AS before, after.id AS after
