// The PPR graph of one space by owner (retrieval/ppr/graph_copy.py): every Type node.
MATCH (t:Type {space: $space})
RETURN t.id AS id
