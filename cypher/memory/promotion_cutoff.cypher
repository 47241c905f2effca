// Percentile rule: the frequency at the given percentile of undeclared schemas ("drop the lowest p %").
MATCH (s:Schema {space: $space})
WHERE NOT coalesce(s.declared, false)
RETURN percentileDisc(s.frequency, $percentile) AS cutoff, count(s) AS schemas
