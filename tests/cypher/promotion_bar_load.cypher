// Schemas for the percentile rule's bar: $rows of {id, frequency, declared, state}, as write_schemas
// and apply_conflicts leave them (every schema has `declared`).
UNWIND $rows AS row
CREATE (:Schema {space: $space, id: row.id, state: row.state, frequency: row.frequency, declared: row.declared})
