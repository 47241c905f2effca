// The document of each passage: what a search hit cites.
UNWIND $ids AS id
MATCH (p:Passage {space: $space, id: id})<-[:HAS_PASSAGE]-(d:Document)
RETURN p.id AS id, p.title AS title, p.index AS index, d.id AS doc_id, d.title AS doc_title, d.source AS source
