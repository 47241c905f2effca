// A GDS procedure no server has: how a database without the GDS plugin answers (test_bad_input_model).
CALL gds.noSuchProcedure.stream()
YIELD nodeId
RETURN nodeId
