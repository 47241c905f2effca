// The PPR graph of one space by owner (retrieval/ppr/graph_copy.py): every passage with its title and
// the entities it mentions (a passage without mentions is an isolated node).
MATCH (p:Passage {space: $space})
RETURN p.id AS id, p.title AS title, [(p)-[:MENTIONS]->(e:Entity) | e.id] AS mentions
