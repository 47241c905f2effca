// Every passage of one space, by id: what the in-process BM25 ranking of the space is built from
// (retrieval/bm25_index.py), once per memory version.
MATCH (p:Passage {space: $space})
RETURN p.id AS id, p.title AS title, p.text AS text
ORDER BY id
