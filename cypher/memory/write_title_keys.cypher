// The title keys memory/title_keys.py computed (unless the title changed meanwhile).
UNWIND $rows AS row
MATCH (p:Passage {space: row.space, id: row.id})
WHERE p.title = row.title
SET p.title_key = row.key
