// Every write that changes the memory bumps its version (invalidates the PPR projection).
// stamped: the write stamps `changed = <new version>` on every node it touches (repository/batch.py runs
// this first): retrieval copies catch up by reading those nodes (and the tombstones of what a retraction
// deleted: cypher/memory/retract_passages). Unstamped (code that cannot stamp what it writes),
// `full` follows the version: copies of an older version are read again whole (retrieval/changes.py).
// title_keys: the version up to which every titled passage of the space has its title_key (this code
// writes it with every passage): it follows the version only while it kept up, so a passage written by
// code without the key (it bumps the version alone) leaves it behind, and retrieval reads every title
// instead of seeking the key until memory/title_keys.py fills the keys in.
// epoch: set when the space's state is created, so a space deleted and written again has a new one: the
// copies kept on disk (retrieval/persisted.py) name the epoch they were read from.
MERGE (m:MemoryState {space: $space})
WITH m, coalesce(m.version, 0) AS before
SET m.version = before + 1, m.updated_at = datetime(), m.epoch = coalesce(m.epoch, randomUUID()),
    m.full = CASE WHEN $stamped THEN coalesce(m.full, before) ELSE before + 1 END,
    m.title_keys = CASE WHEN before = 0 OR m.title_keys = before THEN before + 1 ELSE m.title_keys END
RETURN m.version AS version
