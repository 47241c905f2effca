// The resolution's verdict for each fact of a conflict, recorded as a proposal on INVOLVES (applied
// by apply_conflicts, undone by revert_conflicts), with the conflict's status and rationale.
UNWIND $rows AS row
MATCH (c:Conflict {space: $space, id: row.conflict})-[i:INVOLVES]->(f:Fact {space: $space, id: row.fact})
SET i.proposed = row.verdict, i.proposed_into = row.into, i.proposed_relation = row.relation,
    i.proposed_text = row.text, i.proposed_schema = row.schema_id, i.proposed_valid_from = row.valid_from,
    i.proposed_valid_to = row.valid_to, i.proposed_ordinal = row.ordinal,
    c.status = row.status, c.rationale = row.rationale, c.model = row.model
RETURN count(i) AS proposed
