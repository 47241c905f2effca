// Cosine vector index over Fact embeddings (dimension from the configured embedder).
CREATE VECTOR INDEX fact_embedding IF NOT EXISTS
FOR (n:Fact) ON (n.embedding)
OPTIONS {indexConfig: {`vector.dimensions`: $dimension, `vector.similarity_function`: 'cosine'}}
