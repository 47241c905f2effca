// Facts of the space by state, with how many still carry Unpromoted and how many wait for the conflict check.
MATCH (f:Fact {space: $space})
RETURN f.state AS state, count(*) AS facts, count(CASE WHEN f:Unpromoted THEN 1 END) AS unpromoted,
       count(CASE WHEN f:Unchecked THEN 1 END) AS unchecked
