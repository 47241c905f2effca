// A graph as neo4j-graphrag's KG builder (SimpleKGPipeline, Neo4jWriter) writes it, without `space`: a
// Document by path, its Chunks (text, index) FROM_DOCUMENT and NEXT_CHUNK, entities labelled with their type,
// __Entity__ and __KGBuilder__, FROM_CHUNK the chunks they were extracted from, and relationships between them.
// (The writer itself needs APOC for relationships, which the test instance does not load.)
CREATE (d:Document {path: $prefix + "curie.pdf", document_type: "pdf"})
CREATE (c0:Chunk {id: $prefix + "c0", index: 0, text: "Marie Curie worked at the University of Paris."})
CREATE (c1:Chunk {id: $prefix + "c1", index: 1, text: "Marie Curie was born in Warsaw."})
CREATE (c0)-[:FROM_DOCUMENT]->(d), (c1)-[:FROM_DOCUMENT]->(d), (c0)-[:NEXT_CHUNK]->(c1)
CREATE (curie:Person:__Entity__:__KGBuilder__ {name: "Marie Curie"})
CREATE (paris:Organization:__Entity__:__KGBuilder__ {name: "University of Paris"})
CREATE (warsaw:Place:__Entity__:__KGBuilder__ {name: "Warsaw"})
CREATE (curie)-[:FROM_CHUNK]->(c0), (curie)-[:FROM_CHUNK]->(c1), (paris)-[:FROM_CHUNK]->(c0),
       (warsaw)-[:FROM_CHUNK]->(c1)
CREATE (curie)-[:WORKS_AT]->(paris), (curie)-[:BORN_IN]->(warsaw)
