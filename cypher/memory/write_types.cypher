// The Type nodes a batch names, once per batch: entity and fact rows then MATCH them instead of
// MERGE-ing the same few Types once per row (write_entities spent half its db hits there).
UNWIND $types AS type
MERGE (t:Type {space: $space, id: type})
ON CREATE SET t.name = type, t.changed = $stamp  // repository/batch.py
