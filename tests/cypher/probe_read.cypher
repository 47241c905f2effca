MATCH (n:Probe {space: $space}) RETURN n.name AS name ORDER BY name
