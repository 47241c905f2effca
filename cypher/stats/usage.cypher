// Token usage and cost summed over documents.
MATCH (d:Document {space: $space})
RETURN sum(coalesce(d.prompt_tokens, 0)) AS prompt_tokens, sum(coalesce(d.completion_tokens, 0)) AS completion_tokens,
       sum(coalesce(d.cost, 0.0)) AS cost
