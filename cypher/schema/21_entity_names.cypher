// Entity lookup by canonical name or any alias (aliases_text joins the alias list).
CREATE FULLTEXT INDEX entity_names IF NOT EXISTS
FOR (n:Entity) ON EACH [n.name, n.aliases_text]
