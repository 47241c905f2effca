// Cosine vector index over Schema embeddings (dimension from the configured embedder).
CREATE VECTOR INDEX schema_embedding IF NOT EXISTS
FOR (n:Schema) ON (n.embedding)
OPTIONS {indexConfig: {`vector.dimensions`: $dimension, `vector.similarity_function`: 'cosine'}}
