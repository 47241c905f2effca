// Set the status of one conflict (a person dismissing it, or marking it for review).
MATCH (c:Conflict {space: $space, id: $id})
SET c.status = $status
RETURN c.id AS id
