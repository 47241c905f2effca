// The functional-relation rule over time: a fact of a relation in $relations (one value per head at a
// time) stops being valid when a later fact gives the same head another value. Its invalid_at is the
// valid_at of the earliest such later fact, which `invalidated_by` names. Facts with a verdict
// (discarded, superseded, ...) neither invalidate nor are invalidated here. Idempotent: recomputed
// from the facts each time; a fact no later value contradicts any more gets its invalid_at back to null
// only if this rule set it.
MATCH (h:Entity)<-[:SUBJECT]-(f:Fact {space: $space})-[:OBJECT]->(ft:Entity)
WHERE f.relation IN $relations AND f.valid_at IS NOT NULL AND f.state IN $states
OPTIONAL MATCH (h)<-[:SUBJECT]-(g:Fact {space: $space, relation: f.relation})-[:OBJECT]->(gt:Entity)
WHERE g.state IN $states AND g.valid_at IS NOT NULL AND g.valid_at > f.valid_at AND gt <> ft
WITH f, g ORDER BY g.valid_at, g.id
WITH f, head(collect(g)) AS later
WITH f, later WHERE later IS NOT NULL OR f.invalidated_by IS NOT NULL
// $stamp (repository/batch.py) only on the facts whose invalidation moved: the others are as they were
WITH f, later, coalesce(f.invalidated_by, '') <> coalesce(later.id, '') AS moved
// the fact's own stated end (its qualifier: "until 2001", cypher/memory/write_facts) when it is earlier
SET f.invalid_at = CASE WHEN later IS NULL THEN f.stated_invalid_at
                        WHEN f.stated_invalid_at IS NOT NULL AND f.stated_invalid_at < later.valid_at
                        THEN f.stated_invalid_at ELSE later.valid_at END,
    f.invalidated_by = later.id,
    f.changed = CASE WHEN moved THEN coalesce($stamp, f.changed) ELSE f.changed END
RETURN count(later) AS invalidated
