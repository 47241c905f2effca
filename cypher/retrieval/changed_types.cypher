// Types of one space stamped after version $since (all for $since = -1): nodes of the PPR graph copy.
MATCH (t:Type)
WHERE t.space = $space AND t.changed > $since
WITH t LIMIT $limit
RETURN t.id AS id, t.changed AS changed
