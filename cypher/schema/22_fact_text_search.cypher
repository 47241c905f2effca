// BM25 over fact texts ("Caroline moved to Berlin"): the fulltext leg of System-1 hybrid search
// (retrieval/hybrid.py). Shared by all spaces like passage_text_search: queries filter by space.
// Eventually consistent, its reads await the queue first: see 20_passage_text_search.
CREATE FULLTEXT INDEX fact_text_search IF NOT EXISTS
FOR (n:Fact) ON EACH [n.text]
OPTIONS {indexConfig: {`fulltext.eventually_consistent`: true}}
