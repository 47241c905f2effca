// Every memory space of the database and what it holds (label scans: for a listing, not per query).
// A space is anything that ever wrote a node with its name, so one whose documents were all
// retracted still shows (its retracted facts and schemas are kept), and so does one a delete holds or
// died in (deleting: 1; `spaces delete` again finishes it).
CALL () {
  MATCH (n:Document) RETURN n.space AS space, 'documents' AS kind, count(*) AS n
  UNION ALL
  MATCH (n:Passage) RETURN n.space AS space, 'passages' AS kind, count(*) AS n
  UNION ALL
  MATCH (n:Fact) RETURN n.space AS space, 'facts' AS kind, count(*) AS n
  UNION ALL
  MATCH (n:Entity) RETURN n.space AS space, 'entities' AS kind, count(*) AS n
  UNION ALL
  MATCH (n:MemoryState) RETURN n.space AS space, 'version' AS kind, max(n.version) AS n
  UNION ALL
  MATCH (n:IngestLease) WHERE n.deleting RETURN n.space AS space, 'deleting' AS kind, count(*) AS n
}
WITH space, kind, n
WHERE space IS NOT NULL
RETURN space, collect({kind: kind, n: n}) AS counts
ORDER BY space
