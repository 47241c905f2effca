// candidate -> stable once the frequency reaches the threshold (stable is never demoted).
MATCH (s:Schema {space: $space, state: $candidate})
WHERE s.frequency >= $min_frequency AND ($open OR coalesce(s.declared, false))
SET s.state = $stable, s.promoted_at = datetime()
RETURN count(s) AS promoted
