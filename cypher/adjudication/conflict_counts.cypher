// Conflicts of a space by type and status, and the verdicts applied, by kind.
CALL () {
  MATCH (c:Conflict {space: $space})
  WITH c.type AS type, c.status AS status, count(*) AS n
  RETURN collect([type, status, n]) AS conflicts
}
CALL () {
  MATCH (:Conflict {space: $space})-[i:INVOLVES {applied: true}]->(:Fact)
  WITH i.proposed AS verdict, count(*) AS n
  RETURN collect([verdict, n]) AS verdicts
}
RETURN conflicts, verdicts
