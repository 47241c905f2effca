// These facts were scanned for conflicts.
UNWIND $ids AS id
MATCH (f:Unchecked:Fact {space: $space, id: id})
REMOVE f:Unchecked
RETURN count(f) AS checked
