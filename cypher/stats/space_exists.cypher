// Whether a memory space holds anything: every ingest writes its Document nodes first.
RETURN EXISTS { MATCH (:Document {space: $space}) } AS exists
