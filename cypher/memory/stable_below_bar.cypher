// Stable schemas under the promotion bar (open world): what memory/promotion.demote_below_bar demotes.
// A seek on the schema_promotion index (space, state, frequency).
MATCH (s:Schema {space: $space, state: $stable})
WHERE $open AND s.frequency < $min_frequency
RETURN count(s) AS schemas
