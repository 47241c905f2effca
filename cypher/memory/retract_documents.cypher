// Retraction, last step: the Document nodes go (their passages went in step 1). Done last, so a
// document still listed is a retraction not finished: running it again completes it.
UNWIND $doc_ids AS doc_id
MATCH (d:Document {space: $space, id: doc_id})
DETACH DELETE d
RETURN count(*) AS documents
