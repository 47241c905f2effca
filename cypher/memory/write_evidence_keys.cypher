// The names merged by similarity a passage stated a fact by (memory/facts.py EvidenceKeys), on its
// EVIDENCED_BY (written by create_facts / write_facts first): what memory/unmerge.py moves. Only the
// rare rows that used one: the common write is unchanged.
UNWIND $rows AS row
MATCH (:Fact {space: $space, id: row.fact_id})-[r:EVIDENCED_BY]->(:Passage {space: $space, id: row.passage_id})
SET r.head_key = row.head_key, r.tail_key = row.tail_key, r.direct = row.direct
