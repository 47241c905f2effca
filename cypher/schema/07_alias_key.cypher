// One Alias per normalised name: resolves a surface form to its canonical Entity by index seek.
CREATE CONSTRAINT alias_key IF NOT EXISTS
FOR (n:Alias) REQUIRE (n.space, n.id) IS UNIQUE
