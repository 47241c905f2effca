// Databases created before the fulltext indexes were eventually consistent had `entity_names`, refreshed at
// every commit: dropped for entity_name_search (before the CREATE: CREATE ... IF NOT EXISTS
// is a no-op while an index of the same label and properties exists, whatever its name or options).
DROP INDEX entity_names IF EXISTS
