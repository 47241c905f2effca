// Cosine vector index over Passage embeddings (dimension from the configured embedder).
CREATE VECTOR INDEX passage_embedding IF NOT EXISTS
FOR (n:Passage) ON (n.embedding)
OPTIONS {indexConfig: {`vector.dimensions`: $dimension, `vector.similarity_function`: 'cosine'}}
