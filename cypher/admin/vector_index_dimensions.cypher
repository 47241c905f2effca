// The dimension of every vector index (init_schema compares them with the embedder's).
SHOW VECTOR INDEXES YIELD name, options
RETURN name, options.indexConfig['vector.dimensions'] AS dimension
ORDER BY name
