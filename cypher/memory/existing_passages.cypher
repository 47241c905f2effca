// Which of these passages are already stored, and did their extraction succeed?
UNWIND $ids AS id
MATCH (p:Passage {space: $space, id: id})
RETURN p.id AS id, p.extraction AS extraction
