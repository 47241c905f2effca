// Stand-in for an adjudicator: give the facts whose text contains $text the verdict $state, and
// bump the memory version as every memory change does.
MATCH (f:Fact {space: $space})
WHERE f.text CONTAINS $text
SET f.state = $state
WITH count(f) AS judged
MATCH (m:MemoryState {space: $space})
SET m.version = m.version + 1
RETURN judged
