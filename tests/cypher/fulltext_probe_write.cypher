// One Entity and one Fact with the given words in the fulltext-indexed properties (test_indexes).
MERGE (e:Entity {space: $space, id: $id})
SET e.name = $words, e.aliases_text = $words
MERGE (f:Fact {space: $space, id: $id})
SET f.text = $words, f.state = 'active'
