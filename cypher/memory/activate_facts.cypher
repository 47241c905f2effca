// Facts of stable schemas become active, including facts written before the promotion. Newly active
// facts are labelled Unchecked: conflict detection scans those, and only those (adjudication/).
MATCH (f:Fact {space: $space, state: $pending})-[:INSTANCE_OF]->(s:Schema {state: $stable})
SET f.state = $active, f.activated_at = datetime(), f:Unchecked
RETURN count(f) AS activated
