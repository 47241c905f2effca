// Which of these conflicts a person reviewed (accepted, rejected or reverted), with their status now:
// detection does not override a person's decision (adjudication/review.py).
UNWIND $ids AS id
MATCH (c:Conflict {space: $space, id: id})
WHERE c.review IS NOT NULL
RETURN c.id AS id, c.status AS status, c.review AS review, c.type AS type
