// Spaces ($space; null: every space) whose titled passages all have their title_key now: title_keys
// catches up with the version, so retrieval seeks the key instead of reading every title
// (cypher/memory/bump_version).
MATCH (m:MemoryState)
WHERE ($space IS NULL OR m.space = $space) AND (m.title_keys IS NULL OR m.title_keys <> coalesce(m.version, 0))
WITH m
WHERE NOT EXISTS { MATCH (p:Passage {space: m.space}) WHERE p.title IS NOT NULL AND p.title_key IS NULL }
SET m.title_keys = coalesce(m.version, 0)
RETURN count(m) AS marked
