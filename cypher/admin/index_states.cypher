// Every index (constraints own one of the same name), whether it is ONLINE, and the dimension of the
// vector indexes: tells a read-only command that the schema statements would change nothing
// (store/schema_state.py) and that the embedder fits the indexes, in one read (admin/vector_index_dimensions
// as a second read cost a one-shot `query` a round trip).
SHOW INDEXES YIELD name, state, type, options
RETURN name, state, CASE WHEN type = 'VECTOR' THEN options.indexConfig['vector.dimensions'] END AS dimension
ORDER BY name
