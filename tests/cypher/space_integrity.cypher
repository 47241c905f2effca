// What a space holds per label set and state, and what a write or delete cut short would leave behind:
// facts without evidence, entities no passage mentions, documents without passages, schemas of frequency 0.
CALL () {
  MATCH (n) WHERE n.space = $space
  RETURN reduce(key = 'node', label IN labels(n) | key + ':' + label) + coalesce('/' + toString(n.state), '')
         AS key, count(*) AS n
  UNION ALL
  CALL () {
    MATCH (f:Fact {space: $space}) WHERE NOT EXISTS { (f)-[:EVIDENCED_BY]->(:Passage) } RETURN count(*) AS n
  }
  RETURN 'facts without evidence' AS key, n
  UNION ALL
  CALL () { MATCH (e:Entity {space: $space}) WHERE NOT EXISTS { (:Passage)-[:MENTIONS]->(e) } RETURN count(*) AS n }
  RETURN 'entities without mentions' AS key, n
  UNION ALL
  CALL () { MATCH (d:Document {space: $space}) WHERE NOT EXISTS { (d)-[:HAS_PASSAGE]->() } RETURN count(*) AS n }
  RETURN 'documents without passages' AS key, n
  UNION ALL
  CALL () { MATCH (s:Schema {space: $space}) WHERE coalesce(s.frequency, 0) = 0 RETURN count(*) AS n }
  RETURN 'schemas of frequency 0' AS key, n
}
RETURN key, n
