// Unmerging a name (memory/unmerge.py), after unmerge_move_evidence: an old fact that keeps evidence but
// was written through the name (a fact's head and tail are the names of the batch that created it) is
// renamed to the joined entity's name, its text and embedding with it, as its remaining passages would
// have written it. One without evidence is left to retraction as it is. $stamp: `changed`.
UNWIND $rows AS row
MATCH (f:Fact {space: $space, id: row.id})
WHERE EXISTS { (f)-[:EVIDENCED_BY]->(:Passage) }
SET f.head = row.head, f.tail = row.tail, f.text = row.text, f.embedding = row.embedding, f.changed = $stamp
RETURN count(f) AS renamed
