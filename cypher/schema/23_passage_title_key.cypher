// The question's names matched against passage titles by seek (retrieval/memory_state_names), not by
// reading every title of the space: title_key is the title normalised as alias keys are. Passages of
// memories written before the key existed get it from memory/title_keys.py (run after this folder).
CREATE INDEX passage_title_key IF NOT EXISTS
FOR (n:Passage) ON (n.space, n.title_key)
