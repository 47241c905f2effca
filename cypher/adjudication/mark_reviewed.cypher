// A person decided on these conflicts ($review: accepted, rejected or reverted); detection keeps their
// decision when it meets the same facts again, also after a retraction made the conflict obsolete.
UNWIND $ids AS id
MATCH (c:Conflict {space: $space, id: id})
SET c.review = $review, c.reviewed_at = datetime()
RETURN count(c) AS reviewed
