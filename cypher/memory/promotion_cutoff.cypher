// Percentile rule: the frequency at the given percentile of undeclared schemas ("drop the lowest p %").
// Schemas at frequency 0 (only retracted facts left) support nothing: counted, they lowered the cutoff.
// `state IS NOT NULL`: a seek on the schema_promotion index, not a scan of every space's schemas.
MATCH (s:Schema)
WHERE s.space = $space AND s.state IS NOT NULL AND s.frequency > 0 AND NOT coalesce(s.declared, false)
RETURN percentileDisc(s.frequency, $percentile) AS cutoff, count(s) AS schemas
