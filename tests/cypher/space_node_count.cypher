// Every node carrying a space's name (what an export of the space holds).
MATCH (n)
WHERE n.space = $space
RETURN count(n) AS nodes
