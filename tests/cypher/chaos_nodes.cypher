// Every node of a space with all its properties but the vectors (test_chaos compares them with a
// clean build of the same documents; the test drops timestamps and counters it does not compare).
MATCH (n) WHERE n.space = $space
RETURN labels(n) AS labels, n {.*, embedding: null} AS props
