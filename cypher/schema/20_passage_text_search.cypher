// BM25 over passage text and title (Lucene fulltext). Eventually consistent: a commit queues its
// updates instead of refreshing the Lucene reader, which cost a one-message write ~8 ms per fulltext index
// it touched (3 of them: 73 -> 49 ms of commit on MuSiQue). Every read of it first awaits the queue
// (db.index.fulltext.awaitEventuallyConsistentIndexRefresh), so a read still sees every committed write.
CREATE FULLTEXT INDEX passage_text_search IF NOT EXISTS
FOR (n:Passage) ON EACH [n.text, n.title]
OPTIONS {indexConfig: {`fulltext.eventually_consistent`: true}}
