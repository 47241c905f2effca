// The states of these facts (candidates by meaning found in process are filtered by state, as
// similar_candidates filters the index's hits).
UNWIND $ids AS id
MATCH (f:Fact {space: $space, id: id})
RETURN f.id AS id, f.state AS state
