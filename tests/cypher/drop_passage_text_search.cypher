// test_indexes: the passage fulltext index gone, so the legacy one (same label and properties) can be made.
DROP INDEX passage_text_search IF EXISTS
