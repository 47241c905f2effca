// The PPR graph of one space by owner (retrieval/ppr/graph_copy.py): every entity with its name, its
// types and the SIMILAR bridges out of it (each bridge is stored in one direction, held by its source).
MATCH (e:Entity {space: $space})
RETURN e.id AS id, e.name AS name, [(e)-[:HAS_TYPE]->(t:Type) | t.id] AS types,
       [(e)-[r:SIMILAR]->(b:Entity) | [b.id, r.weight]] AS similar
