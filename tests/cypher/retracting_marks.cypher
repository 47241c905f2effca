// Nodes of a space still marked by a retraction (memory/retract.py): 0 once it finished.
MATCH (n:Retracting {space: $space})
RETURN count(n) AS marks
