// Percentile rule: the frequency at the given percentile of undeclared schemas ("drop the lowest p %").
// Schemas at frequency 0 (only retracted facts left) support nothing: counted, they lowered the cutoff.
MATCH (s:Schema {space: $space})
WHERE NOT coalesce(s.declared, false) AND s.frequency > 0
RETURN percentileDisc(s.frequency, $percentile) AS cutoff, count(s) AS schemas
