// Facts of stable schemas become active, including facts written before the promotion.
MATCH (f:Fact {space: $space, state: $pending})-[:INSTANCE_OF]->(s:Schema {state: $stable})
SET f.state = $active, f.activated_at = datetime()
RETURN count(f) AS activated
