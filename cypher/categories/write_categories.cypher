// Category nodes of the hierarchy over entities (memory/categories.py): one per (layer, name); layer 1
// groups entities, layer n+1 groups layer-n categories. `revision` is the hierarchy update that last
// created or changed the category (its members or summary): an incremental update touches only the
// categories of the affected branches.
UNWIND $rows AS row
MERGE (c:Category {space: $space, id: row.id})
SET c.name = row.name, c.summary = row.summary, c.layer = row.layer, c.revision = row.revision
