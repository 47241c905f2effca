// Passages that mention each entity (MENTIONS), at most $per_entity each, from entities mentioned by
// few passages first (a name in every message says little): for System-1's entity leg and expansion.
UNWIND $ids AS id
MATCH (e:Entity {space: $space, id: id})<-[:MENTIONS]-(p:Passage)
WITH id, p ORDER BY p.time, p.id
WITH id, collect(p.id) AS all
RETURN id, size(all) AS mentions, all[..$per_entity] AS passages
