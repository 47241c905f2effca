// The GDS projections of test spaces (t_...): the session's end drops those whose space is gone.
CALL gds.graph.list() YIELD graphName
WITH graphName WHERE graphName STARTS WITH 'mg_t_'
RETURN graphName
