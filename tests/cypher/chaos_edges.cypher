// Every relationship of a space (both ends in it): type, the ends' stable keys, all its properties.
MATCH (a)-[r]->(b) WHERE a.space = $space AND b.space = $space
RETURN type(r) AS type, labels(a) AS source_labels, coalesce(a.id, a.name, a.key) AS source,
       labels(b) AS target_labels, coalesce(b.id, b.name, b.key) AS target, properties(r) AS props
