// $schemas candidate schemas of frequency 5, each with $facts pending facts written since the last
// promotion (Unpromoted): the shape of a batch whose recount lifts many schemas over the bar at once.
UNWIND range(1, $schemas) AS i
CREATE (s:Schema {space: $space, id: 'schema-' + i, state: 'candidate', frequency: 5})
WITH s, i
UNWIND range(1, $facts) AS j
CREATE (:Fact:Unpromoted {space: $space, id: 'fact-' + i + '-' + j, state: 'pending'})-[:INSTANCE_OF]->(s)
