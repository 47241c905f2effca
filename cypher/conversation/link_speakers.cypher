// Who said each episode: (Episode)-[:SPOKEN_BY]->(Entity), the speaker written as an entity first.
UNWIND $rows AS row
MATCH (p:Episode {space: $space, id: row.id})
MATCH (e:Entity {space: $space, id: row.entity_id})
MERGE (p)-[:SPOKEN_BY]->(e)
