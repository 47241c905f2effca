// The relationships of the docs' graph model (docs/hooks/graph_model.py): each (labels)-[type]->(labels)
// that occurs in the space, with its count and every property key those relationships hold.
// :params {space: "demo"}
MATCH (a {space: $space})-[r]->(b)
WITH labels(a) AS start, type(r) AS type, labels(b) AS end, count(*) AS count, collect(keys(r)) AS keysets
RETURN start, type, end, count, reduce(seen = [], ks IN keysets | seen + [k IN ks WHERE NOT k IN seen]) AS keys
