// Speaker, session, turn and time of the given episodes.
UNWIND $ids AS id
MATCH (p:Episode {space: $space, id: id})
RETURN p.id AS id, p.speaker AS speaker, p.session AS session, p.turn AS turn, p.time AS time,
       p.conversation AS conversation
