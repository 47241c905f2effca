// Episodes: passages that are one message of a conversation (ingest/episodes.py), labelled Episode
// with who said it, in which session and when. `time` is a datetime (null when the source gives none).
UNWIND $rows AS row
MATCH (p:Passage {space: $space, id: row.id})
SET p:Episode, p.speaker = row.speaker, p.session = row.session, p.turn = row.turn,
    p.conversation = row.conversation, p.time = row.time,
    p.changed = coalesce($stamp, p.changed)  // repository/batch.py
