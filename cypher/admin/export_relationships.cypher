// Every relationship that starts in a space, streamed in one read, its ends named by the keys of
// export_nodes.
MATCH (a)
WHERE a.space = $space
MATCH (a)-[r]->(b)
RETURN elementId(r) AS id, type(r) AS type,
       coalesce([k IN $kinds WHERE k IN labels(a)][0], labels(a)[0]) + ':' + coalesce(a.id, a.space) AS source,
       coalesce([k IN $kinds WHERE k IN labels(b)][0], labels(b)[0]) + ':' + coalesce(b.id, b.space) AS target,
       properties(r) AS properties
