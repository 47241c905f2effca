// The passage fulltext index as databases before the eventually consistent ones had it (refreshed at commit).
CREATE FULLTEXT INDEX passage_text IF NOT EXISTS
FOR (n:Passage) ON EACH [n.text, n.title]
