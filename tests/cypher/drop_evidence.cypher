// Cuts one fact off its evidence passages (tests/integration/test_analytics.py: facts without evidence).
MATCH (f:Fact {space: $space, id: $fact})-[r:EVIDENCED_BY]->(:Passage)
DELETE r
RETURN count(r) AS dropped
