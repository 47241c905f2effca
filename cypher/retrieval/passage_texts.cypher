// Passages by id: text and provenance (page range and heading path; null when the document had none;
// an episode's speaker and time, null for other passages).
UNWIND $ids AS id
MATCH (p:Passage {space: $space, id: id})
RETURN p.id AS id, p.title AS title, p.text AS text, p.page AS page, p.page_end AS page_end, p.heading AS heading,
       p.sections AS sections, p.speaker AS speaker, p.time AS time
