// When a fact became true (from its time qualifier or the episode that said it); only moved earlier.
UNWIND $rows AS row
MATCH (f:Fact {space: $space, id: row.id})
SET f.valid_at = CASE WHEN f.valid_at IS NULL OR row.valid_at < f.valid_at THEN row.valid_at ELSE f.valid_at END
