// The graph model the docs draw (docs/hooks/graph_model.py): each combination of labels the space's nodes
// carry (an Episode is also a Passage), with its node count and every property key those nodes hold. Read
// from one space, not from db.schema.visualization(): that covers the whole database (every space) and
// draws a relationship for each label of a multi-labelled node, pairs no two nodes are in.
// :params {space: "demo"}
MATCH (n {space: $space})
WITH labels(n) AS labels, count(*) AS nodes, collect(keys(n)) AS keysets
RETURN labels, nodes, reduce(seen = [], ks IN keysets | seen + [k IN ks WHERE NOT k IN seen]) AS keys
