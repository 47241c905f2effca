// Types of one space stamped after version $since (all for $since = -1): nodes of the PPR graph copy,
// with their entity count now (seed statistics; a retraction stamps the types of the entities it deletes).
MATCH (t:Type)
WHERE t.space = $space AND t.changed > $since
WITH t LIMIT $limit
RETURN t.id AS id, t.changed AS changed, COUNT { (t)<-[:HAS_TYPE]-() } AS degree
