// Percentile rule: the frequency at the given percentile of undeclared schemas ("drop the lowest p %").
// Schemas at frequency 0 (only retracted facts left) support nothing: counted, they lowered the cutoff.
// A seek on the schema_support index (space, declared, frequency), not a scan of every space's schemas.
MATCH (s:Schema)
WHERE s.space = $space AND s.declared = false AND s.frequency > 0
RETURN percentileDisc(s.frequency, $percentile) AS cutoff, count(s) AS schemas
