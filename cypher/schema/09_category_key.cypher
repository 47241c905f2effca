// One Category per id and space (conversation memory's hierarchy, memory/categories.py): MERGE on the
// key is an index seek, and two writers cannot create the same category twice.
CREATE CONSTRAINT category_key IF NOT EXISTS
FOR (n:Category) REQUIRE (n.space, n.id) IS UNIQUE
