// The KG-builder graph of kg_builder_graph, by its document path prefix: its chunks, their entities, the document.
MATCH (d:Document)<-[:FROM_DOCUMENT]-(c:Chunk)
WHERE d.space IS NULL AND d.path STARTS WITH $prefix
OPTIONAL MATCH (e:__Entity__)-[:FROM_CHUNK]->(c)
DETACH DELETE e, c, d
