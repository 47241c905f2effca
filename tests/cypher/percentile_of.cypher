// percentileDisc of a plain list: the reference the promotion bar is checked against.
UNWIND $values AS v
RETURN percentileDisc(v, $percentile) AS value
