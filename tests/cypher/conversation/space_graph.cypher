// Every node of a space with its labels and properties, and every relationship between two of its
// nodes with its type, properties and the ids of its ends: two spaces written from the same input
// compare equal once the space name, the vectors and the write times are left out (the test does).
CALL () {
  MATCH (n) WHERE n.space = $space
  RETURN 'node' AS kind, labels(n) AS labels, properties(n) AS props, null AS start, null AS end
  UNION ALL
  MATCH (a)-[r]->(b) WHERE a.space = $space AND b.space = $space
  RETURN 'rel' AS kind, [type(r)] AS labels, properties(r) AS props, coalesce(a.id, a.name) AS start,
         coalesce(b.id, b.name) AS end
}
RETURN kind, labels, props, start, end
