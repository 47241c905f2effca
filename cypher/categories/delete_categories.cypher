// Remove a space's category hierarchy (before a full rebuild); entities and everything else stay.
MATCH (c:Category {space: $space})
DETACH DELETE c
