// Passage-entity mentions in the whole database (from the count store: no scan). An upper bound
// for one space, used to decide whether its seed statistics fit in memory.
MATCH ()-[r:MENTIONS]->() RETURN count(r) AS mentions
