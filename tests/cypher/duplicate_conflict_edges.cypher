// A memory written before pairs were collapsed: every CONFLICTS_WITH edge of the space gets a copy.
MATCH (a:Fact {space: $space})-[r:CONFLICTS_WITH]->(b:Fact)
CREATE (a)-[copy:CONFLICTS_WITH]->(b)
SET copy = properties(r)
RETURN count(copy) AS copies
