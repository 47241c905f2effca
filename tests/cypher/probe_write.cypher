CREATE (n:Probe {space: $space, name: $name}) RETURN n.name AS name
