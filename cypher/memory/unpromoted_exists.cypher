// Whether facts written since the last promotion wait for it (a run killed between its write and its
// promotion left them): the next ingest promotes them first, even with nothing new to extract.
OPTIONAL MATCH (f:Unpromoted:Fact {space: $space})
WITH f LIMIT 1
RETURN f IS NOT NULL AS waiting
