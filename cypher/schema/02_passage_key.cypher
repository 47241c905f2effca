// One Passage per (space, id): ids are content hashes, so MERGE on them is idempotent.
CREATE CONSTRAINT passage_key IF NOT EXISTS
FOR (n:Passage) REQUIRE (n.space, n.id) IS UNIQUE
