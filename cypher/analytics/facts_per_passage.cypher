// Distribution of facts per passage: how many passages cite 0, 1, 2 ... facts as evidence (any fact
// state). A tall bar at 0 means passages the extractor found nothing in.
// :params {space: "demo"}
MATCH (p:Passage {space: $space})
WITH p, COUNT { (p)<-[:EVIDENCED_BY]-(:Fact) } AS facts
RETURN facts, count(p) AS passages
ORDER BY facts
