// Hand-made graph: seeds a and b; x hangs off a, y off b, c links x and y.
UNWIND [['a','x'], ['b','y'], ['c','x'], ['c','y']] AS pair
MERGE (s:Probe {space: $space, name: pair[0]})
MERGE (t:Probe {space: $space, name: pair[1]})
MERGE (s)-[:LINK]->(t)
