// Every relationship type the database holds.
CALL db.relationshipTypes() YIELD relationshipType
RETURN relationshipType AS type
