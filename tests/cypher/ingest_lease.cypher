// The ingest lease of a space, if one is held (test_bad_input_api: a refused input takes none).
MATCH (l:IngestLease {space: $space})
RETURN l.space AS space
