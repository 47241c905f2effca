// Every index (constraints own one of the same name) and whether it is ONLINE: tells a read-only
// command that the schema statements would change nothing (store/schema_state.py).
SHOW INDEXES YIELD name, state
RETURN name, state
