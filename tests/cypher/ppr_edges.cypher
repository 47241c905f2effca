MATCH (s:Probe {space: $space})-[:LINK]->(t:Probe) RETURN s.name AS s, t.name AS t
