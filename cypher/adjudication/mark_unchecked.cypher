// Queue every active fact of the space for a conflict scan (a full rescan, e.g. of a memory built
// before adjudication existed).
MATCH (f:Fact {space: $space, state: $active})
SET f:Unchecked
RETURN count(f) AS queued
