// Token usage and cost per document, accumulated over ingests.
UNWIND $rows AS row
MATCH (d:Document {space: $space, id: row.doc_id})
SET d.prompt_tokens = coalesce(d.prompt_tokens, 0) + row.prompt_tokens,
    d.completion_tokens = coalesce(d.completion_tokens, 0) + row.completion_tokens,
    d.cost = coalesce(d.cost, 0.0) + row.cost
