// Where names merged by similarity are recorded as used (memory/facts.py): evidence and mentions, with the
// ones that also named the fact or entity otherwise (direct).
CALL () {
  MATCH (:Fact {space: $space})-[r:EVIDENCED_BY]->(:Passage)
  WHERE r.head_key IS NOT NULL OR r.tail_key IS NOT NULL
  RETURN count(r) AS evidence, count(r.direct) AS evidence_direct
}
CALL () {
  MATCH (:Passage {space: $space})-[m:MENTIONS]->(:Entity)
  WHERE m.merged_keys IS NOT NULL
  RETURN count(m) AS mentions, count(m.direct) AS mentions_direct
}
RETURN evidence, evidence_direct, mentions, mentions_direct
