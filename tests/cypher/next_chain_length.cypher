MATCH (:Passage {space: $space})-[r:NEXT]->(:Passage) RETURN count(r) AS links
