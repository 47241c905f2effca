// Databases created before the fulltext indexes were eventually consistent had `passage_text`, refreshed at
// every commit: dropped for passage_text_search (before the CREATE: CREATE ... IF NOT EXISTS
// is a no-op while an index of the same label and properties exists, whatever its name or options).
DROP INDEX passage_text IF EXISTS
