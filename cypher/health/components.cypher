// Weakly connected components of the projection and the size of the largest (counted from the stream:
// the stats histogram's max is approximate for large sizes). An isolated node is its own component.
CALL gds.wcc.stream($graph, {concurrency: $concurrency})
YIELD componentId
WITH componentId, count(*) AS size
RETURN count(*) AS components, coalesce(max(size), 0) AS largest
