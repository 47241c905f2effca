// Cosine vector index over Fact embeddings (dimension from the configured embedder). `space` is a
// filter property: `SEARCH ... WHERE n.space = $space` takes the top k of one space inside the index,
// so other spaces cannot crowd it out. Unquantised: scores are the float32 cosine, whatever else
// the index holds (int8 quantiles would be computed over every space's vectors).
CYPHER 25
CREATE VECTOR INDEX fact_embedding_by_space IF NOT EXISTS
FOR (n:Fact) ON (n.embedding) WITH [n.space]
OPTIONS {indexConfig: {`vector.dimensions`: $dimension, `vector.similarity_function`: 'cosine',
                       `vector.quantization.enabled`: false}}
