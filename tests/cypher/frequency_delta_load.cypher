// One schema with $facts active facts, each evidenced by a passage of its own (frequency $facts, exact),
// and one fact written by the batch stamped $stamp (Unpromoted, created and evidenced by that batch) on a
// new passage: the shape promote_frequency_delta reads at the end of a one-message write.
CREATE (s:Schema {space: $space, id: 'schema-hub', relation: 'hub', state: 'stable', frequency: $facts})
WITH s
UNWIND range(1, $facts) AS i
CREATE (f:Fact {space: $space, id: 'fact-' + i, state: 'active'})-[:INSTANCE_OF]->(s),
       (f)-[:EVIDENCED_BY]->(:Passage {space: $space, id: 'passage-' + i})
WITH DISTINCT s
CREATE (u:Fact:Unpromoted {space: $space, id: 'fact-new', state: 'pending', created: $stamp, changed: $stamp})
         -[:INSTANCE_OF]->(s),
       (u)-[:EVIDENCED_BY {created: $stamp}]->(:Passage {space: $space, id: 'passage-new'})
