// Titled passages of one space ($space; null: of every space) without a title_key: written before the
// key existed, or by code that does not write it (memory/title_keys.py fills it in).
MATCH (p:Passage)
WHERE p.title IS NOT NULL AND p.title_key IS NULL AND ($space IS NULL OR p.space = $space)
RETURN p.space AS space, p.id AS id, p.title AS title
