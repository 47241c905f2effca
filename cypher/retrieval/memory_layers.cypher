// One round trip for what a query needs of the memory: its write version, the PPR projections of this
// space (names starting with $prefix), and the top hits of the Fact, Schema and Passage vector indexes.
// $fetch, $k and $states map each layer (facts, schemas, passages) to how many hits to ask the index
// for (0: the layer is not searched), how many to keep and the states allowed (null: any). The space
// filter is inside each search (the indexes are shared by all spaces); states are filtered after, so
// `scanned` is how many hits the index gave: the caller can tell "fewer than k exist" (scanned <
// fetch) from "ask for more". Ties go to the lower id. Neo4j scores cosine as (1 + cos) / 2; we return cos.
CYPHER 25
OPTIONAL MATCH (m:MemoryState {space: $space})
WITH coalesce(m.version, 0) AS version
CALL () {
  CALL gds.graph.list() YIELD graphName
  WHERE graphName STARTS WITH $prefix
  RETURN collect(graphName) AS graphs
}
CALL () {
  MATCH (f:Fact)
    SEARCH f IN (VECTOR INDEX fact_embedding_by_space FOR $vector WHERE f.space = $space LIMIT $fetch.facts)
    SCORE AS similarity
  WITH f, 2 * similarity - 1 AS score
  ORDER BY score DESC, f.id
  WITH count(*) AS scanned,
       collect(CASE WHEN $states.facts IS NULL OR f.state IN $states.facts THEN [f, score] END)[..$k.facts] AS top
  CALL (top) {
    UNWIND top AS t
    WITH t[0] AS fact, t[1] AS score  // a name of its own: reusing `f` here fails in the 2026.01 planner
    RETURN collect({id: fact.id, score: score, text: fact.text,
                    head_id: head(COLLECT { MATCH (fact)-[:SUBJECT]->(h:Entity) RETURN h.id }),
                    tail_id: head(COLLECT { MATCH (fact)-[:OBJECT]->(o:Entity) RETURN o.id })}) AS rows
  }
  RETURN {layer: 'facts', scanned: scanned, rows: rows} AS facts
}
CALL () {
  MATCH (s:Schema)
    SEARCH s IN (VECTOR INDEX schema_embedding_by_space FOR $vector WHERE s.space = $space LIMIT $fetch.schemas)
    SCORE AS similarity
  WITH s, 2 * similarity - 1 AS score
  ORDER BY score DESC, s.id
  WITH count(*) AS scanned,
       collect(CASE WHEN $states.schemas IS NULL OR s.state IN $states.schemas THEN [s, score] END)[..$k.schemas] AS top
  RETURN {layer: 'schemas', scanned: scanned,
          rows: [t IN top | {id: t[0].id, score: t[1], head_type: t[0].head_type, relation: t[0].relation,
                             tail_type: t[0].tail_type}]} AS schemas
}
CALL () {
  MATCH (p:Passage)
    SEARCH p IN (VECTOR INDEX passage_embedding_by_space FOR $vector WHERE p.space = $space LIMIT $fetch.passages)
    SCORE AS similarity
  WITH p, 2 * similarity - 1 AS score
  ORDER BY score DESC, p.id
  WITH count(*) AS scanned, collect([p, score])[..$k.passages] AS top
  RETURN {layer: 'passages', scanned: scanned,
          rows: [t IN top | {id: t[0].id, score: t[1], title: t[0].title, text: t[0].text}]} AS passages
}
RETURN version, graphs, [facts, schemas, passages] AS layers
