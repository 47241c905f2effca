// Readiness probe: answers only once the GDS extension is loaded.
RETURN gds.version() AS gds
