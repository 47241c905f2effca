// The PPR graph of one space by owner, for the in-process engine (retrieval/ppr/graph_copy.py): every
// fact with its state, relation and ends (its edge's weight follows from them). Read whole once; then
// the copy applies what changed (changed_facts). The same edges as cypher/retrieval/project_graph.
MATCH (h:Entity)<-[:SUBJECT]-(f:Fact {space: $space})-[:OBJECT]->(t:Entity)
RETURN f.id AS id, f.state AS state, f.relation AS relation, h.id AS head_id, t.id AS tail_id
