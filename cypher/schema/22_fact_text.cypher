// BM25 over fact texts ("Caroline moved to Berlin"): the fulltext leg of System-1 hybrid search
// (retrieval/hybrid.py). Shared by all spaces like passage_text: queries filter by space.
CREATE FULLTEXT INDEX fact_text IF NOT EXISTS
FOR (n:Fact) ON EACH [n.text]
