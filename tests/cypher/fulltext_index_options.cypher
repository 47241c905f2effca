// Every fulltext index, with whether it is eventually consistent.
SHOW FULLTEXT INDEXES YIELD name, options
RETURN name, options.indexConfig['fulltext.eventually_consistent'] AS eventually_consistent
ORDER BY name
