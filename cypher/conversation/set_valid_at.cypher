// When a fact became true (from its time qualifier or the episode that said it); only moved earlier.
UNWIND $rows AS row
MATCH (f:Fact {space: $space, id: row.id})
WITH f, row WHERE f.valid_at IS NULL OR row.valid_at < f.valid_at
SET f.valid_at = row.valid_at, f.changed = coalesce($stamp, f.changed)  // repository/batch.py
