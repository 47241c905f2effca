// Passages of a space whose extraction is done (test_kill_resume), with a hash of their text computed
// by the test.
MATCH (p:Passage {space: $space})
WHERE p.extraction = $ok
RETURN p.text AS text
