// Conflicts a person reviewed, made obsolete by a retraction and detected again: they return as the
// person left them. Rejected: dismissed; reverted: needs_review; accepted: apply_conflicts, run next
// in the same transaction, applies the person's verdicts again (kept on INVOLVES) and resolves them.
UNWIND $ids AS id
MATCH (c:Conflict {space: $space, id: id})
WHERE c.status = $obsolete AND c.review IS NOT NULL
SET c.status = CASE c.review WHEN $rejected THEN $dismissed WHEN $accepted THEN $open ELSE $needs_review END,
    c.detected_at = datetime()
RETURN count(c) AS restored
