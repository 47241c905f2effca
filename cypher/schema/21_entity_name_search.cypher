// Entity lookup by canonical name or any alias (aliases_text joins the alias list). Eventually consistent,
// its reads await the queue first: see 20_passage_text_search.
CREATE FULLTEXT INDEX entity_name_search IF NOT EXISTS
FOR (n:Entity) ON EACH [n.name, n.aliases_text]
OPTIONS {indexConfig: {`fulltext.eventually_consistent`: true}}
