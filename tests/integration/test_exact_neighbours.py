"""Ingest's in-process neighbour search (memory/neighbours.py) against the real server: it finds what the
vector index finds, a build with it is the build through the index, and it reads the space's vectors
once per writer unless another writer changed the space."""

from __future__ import annotations

import uuid

import pytest
from test_isolation import corpus, graph
from test_retrieval import drop_graphs

from memgraph_neo4j.api import MemoryGraph
from memgraph_neo4j.config import MemoryConfig
from memgraph_neo4j.ingest.readers import Document
from memgraph_neo4j.memory.neighbours import ExactEntityLookup, IvfVectors
from memgraph_neo4j.repository.entities import EntityRepository, VectorQuery
from memgraph_neo4j.repository.facts import FactRepository


@pytest.fixture
def two_spaces(store):
    names = [f"t_exact_{uuid.uuid4().hex[:8]}" for _ in range(2)]
    yield names
    for name in names:
        store.run_implicit("admin/delete_space", space=name)
        drop_graphs(store, name)


def build(store, space, minilm, documents, **config) -> MemoryGraph:
    memory = MemoryGraph(space=space, store=store, embedder=minilm, extractor="offline",
                         config=MemoryConfig(**config))
    for vectors in (memory.writer.lookup.vectors, memory.writer.fact_vectors):
        vectors.build_seconds_per_vector = 0  # over the cap: the copy at once, not after the index's answers
    memory.ingest(documents, batch_size=8, progress=False)  # several batches: later ones resolve against earlier
    return memory


def stored_ids(store, space: str) -> tuple[list[str], list[str]]:
    """The ids of the entity and fact vectors stored in the space, sorted: what the writer's copies hold."""
    return (sorted(i for ids, _, _ in EntityRepository(store, space).entity_vector_pages() for i in ids),
            sorted(i for ids, _, _ in FactRepository(store, space).fact_vector_pages() for i in ids))


def test_a_build_with_the_exact_search_is_the_build_through_the_index(store, test_store, minilm, two_spaces):
    exact, index = two_spaces
    documents = corpus()  # look-alike names (Apollo astronauts): each has more neighbours than bridging keeps
    with build(store, exact, minilm, documents) as a, build(store, index, minilm, documents,
                                                           exact_neighbours_max=0) as b:
        # one read of the vectors per writer
        assert a.writer.lookup.vectors.loads == 1 and b.writer.lookup.vectors.loads == 0
        built, other = graph(a, test_store), graph(b, test_store)
    # the index hands back (1 + cos) / 2 in float32, so its cosines differ from the exact ones by ~1e-5
    similar, other_similar = built.pop("similar"), other.pop("similar")
    assert built == other
    assert similar.keys() == other_similar.keys() and len(similar) > 20  # bridging had neighbours to find
    assert [similar[k] for k in similar] == pytest.approx([other_similar[k] for k in similar], abs=1e-4)


def test_the_vector_reads_page_by_id_and_small_pages_read_what_one_page_reads(store, minilm, two_spaces):
    space, _ = two_spaces
    with build(store, space, minilm, corpus()):
        pass
    for repository, name in ((EntityRepository(store, space), "memory/entity_vectors"),
                             (FactRepository(store, space), "memory/fact_vectors")):
        whole = list(repository._vector_pages(name, page=100_000))
        pages = list(repository._vector_pages(name, page=7))
        assert len(whole) == 1 and len(pages) == -(-len(whole[0][0]) // 7) > 3, name
        ids = [i for page in pages for i in page[0]]
        assert ids == whole[0][0] == sorted(set(ids)), name  # in id order, none twice, none left out
        assert [t for page in pages for t in page[1]] == whole[0][1], name
        assert [v for page in pages for v in page[2]] == whole[0][2], name


def test_a_build_with_the_inverted_file_copy_is_the_exact_build_when_it_probes_every_cell(
        store, test_store, minilm, two_spaces):
    exact, ivf = two_spaces
    documents = corpus()
    # a cap of 40: the copies pass it in the second batch; a few cells of ~40 rows, all probed
    with build(store, exact, minilm, documents) as a, build(store, ivf, minilm, documents,
                                                           exact_neighbours_max=40) as b:
        assert isinstance(b.writer.lookup.vectors.current(), IvfVectors)
        assert isinstance(b.writer.fact_vectors.current(), IvfVectors)
        assert not isinstance(a.writer.lookup.vectors.current(), IvfVectors)
        built, other = graph(a, test_store), graph(b, test_store)
    similar, other_similar = built.pop("similar"), other.pop("similar")
    assert built == other
    assert similar.keys() == other_similar.keys() and len(similar) > 20
    # faiss's and numpy's float32 products differ by ~1e-6, and the weights come rounded to 5 decimals
    # (test_isolation.graph): two such weights can round 1e-5 apart (0.860865 -> 0.86086 / 0.86087 on a
    # machine whose BLAS sums in another order)
    assert [similar[k] for k in similar] == pytest.approx([other_similar[k] for k in similar], abs=2e-5)


def test_the_copy_finds_what_the_index_finds_and_follows_other_writers(store, minilm, two_spaces):
    space = two_spaces[0]
    with build(store, space, minilm, corpus()[:20]) as memory:
        repository = EntityRepository(store, space)
        names = ["Neil Armstrong", "Buzz Aldrin", "Ada Lovelace", "the University of Vienna", "Apollo"]
        queries = [VectorQuery(f"key:{n}", v.tolist()) for n, v in zip(names, minilm.embed_documents(names))]
        lookup = ExactEntityLookup(repository, max_vectors=10_000)
        same(lookup.entity_neighbors(queries, fetch=30, min_cosine=0.3),
             repository.entity_neighbors(queries, fetch=30, min_cosine=0.3))
        assert lookup.vectors.loads == 1
        # another writer adds an entity: the next search reads the copy again and finds it
        memory.ingest([Document(title="Sally Ride", text="Sally Ride was born in Los Angeles.")], progress=False)
        ride = [VectorQuery("key:ride", minilm.embed_documents(["Sally Ride"])[0].tolist())]
        found = lookup.entity_neighbors(ride, 5, 0.99)
        same(found, repository.entity_neighbors(ride, 5, 0.99))
        assert len(found) == 1 and lookup.vectors.loads == 2


def same(exact, from_index) -> None:
    assert from_index, "the index found nothing to compare with"
    assert [(n.id, n.neighbor, n.type) for n in exact] == [(n.id, n.neighbor, n.type) for n in from_index]
    assert [n.cosine for n in exact] == pytest.approx([n.cosine for n in from_index], abs=1e-5)


def test_candidates_by_meaning_from_the_copy_are_those_of_the_index(store, minilm, two_spaces):
    from memgraph_neo4j.adjudication.similar import similar_candidates
    from memgraph_neo4j.repository.conflicts import ConflictRepository

    space = two_spaces[0]
    facts = [Document(title=f"Note {i}", text=text) for i, text in enumerate([
        "Marie Curie was born in Warsaw.", "Marie Curie was born in Poland.", "Maria Curie was born in Warsaw.",
        "Alan Turing was born in 1912.", "Alan Turing was born in 1913.", "Alan Turing was born in London.",
        "Ada Lovelace was born in London.", "Ada Lovelace was born in 1815."])]
    with MemoryGraph(space=space, store=store, embedder=minilm, extractor="offline", adjudication=False) as memory:
        memory.ingest(facts, batch_size=3, progress=False)
        repository = ConflictRepository(store, space)
        ids = [i for page_ids, _, _ in FactRepository(store, space).fact_vector_pages() for i in page_ids]
        from_index = similar_candidates(repository, None, ids, similarity=0.8, limit=20)
        exact = similar_candidates(repository, memory.writer.fact_vectors, ids, similarity=0.8, limit=20)
    assert len(from_index) >= 4  # the look-alike facts find each other
    assert [(c.fact, c.candidate, c.rule) for c in exact] == [(c.fact, c.candidate, c.rule) for c in from_index]
    assert [c.cosine for c in exact] == pytest.approx([c.cosine for c in from_index], abs=1e-5)


def test_adjudication_checks_the_fact_copy_once_per_run_not_once_per_round(store, minilm, two_spaces):
    from memgraph_neo4j.config import AdjudicationConfig

    space = two_spaces[0]
    with MemoryGraph(space=space, store=store, embedder=minilm, extractor="offline",
                     adjudication=AdjudicationConfig(batch=3)) as memory:  # rounds of 3 facts
        memory.ingest(corpus()[:12], batch_size=12, progress=False)
        vectors, checks = memory.writer.fact_vectors, []
        version = vectors._version  # every check reads the version first (then counts, if it moved)
        vectors._version = lambda: checks.append(1) or version()
        report = memory.adjudicate(rescan_all=True)
        assert report.scanned > 9  # more than three rounds
        assert len(checks) == 1 and vectors.loads == 1  # one check, and the copy was not read again
        found = memory.adjudicator.last_candidates
        vectors._version = version
        memory.writer.fact_vectors = None  # the same run through the index finds the same candidates
        memory.adjudicator.fact_vectors = None
        memory.adjudicate(rescan_all=True)
        assert {(c.fact, c.candidate) for c in memory.adjudicator.last_candidates} == {
            (c.fact, c.candidate) for c in found}


def test_the_writer_checks_its_copies_by_the_version_and_counts_only_after_other_writes(store, minilm, two_spaces):
    """The writer's own commits move its copies' version on (one read of the version per check, no count of
    the space); another writer's commit makes the next check count, read the copy again and find its rows.
    After each step both copies hold exactly what the space holds."""
    space = two_spaces[0]

    def held(vectors) -> list[str]:
        return sorted(vectors.current().ids)

    def stored() -> tuple[list[str], list[str]]:
        return stored_ids(store, space)

    documents = corpus()
    with MemoryGraph(space=space, store=store, embedder=minilm, extractor="offline", adjudication=False) as memory:
        memory.ingest(documents[:6], batch_size=3, progress=False)
        entities, facts = memory.writer.lookup.vectors, memory.writer.fact_vectors
        before = [(v.counts, v.loads) for v in (entities, facts)]
        assert before[0][1] == 1 and before[1][1] <= 1  # read once (facts: when the first fact was written)
        memory.ingest(documents[6:12], batch_size=3, progress=False)  # several commits of its own
        assert [(v.counts, v.loads) for v in (entities, facts)] == before
        assert (held(entities), held(facts)) == stored()
        with MemoryGraph(space=space, store=store, embedder=minilm, extractor="offline",
                         adjudication=False) as other:
            other.ingest(documents[12:16], progress=False)
        memory.ingest(documents[16:18], progress=False)
        assert all(v.counts > b[0] and v.loads > b[1] for v, b in zip((entities, facts), before))
        assert (held(entities), held(facts)) == stored()


def test_under_its_lease_the_writer_knows_the_version_and_writes_a_message_in_one_transaction(store, minilm,
                                                                                             two_spaces, monkeypatch):
    """Under the space's lease the version is the one the lease saw or the writer's own last commit made:
    an ingest reads it nowhere (it was 2-3 reads per one-message write). A message's document, passage
    and extraction are one write transaction (they were three), between taking and giving back the lease.
    Another writer's commit is still seen: the next lease sees its version, and the copies are read again."""
    space = two_spaces[0]
    documents = corpus()
    names: list[str] = []
    transactions: list[list[str]] = []
    run, write_many = store._run, store.write_many
    monkeypatch.setattr(store, "_run", lambda tx, name, params: names.append(name) or run(tx, name, params))
    monkeypatch.setattr(store, "write_many", lambda statements: transactions.append([n for n, _ in statements])
                        or write_many(statements))
    with MemoryGraph(space=space, store=store, embedder=minilm, extractor="offline", adjudication=False) as memory:
        memory.ingest(documents[:4], batch_size=2, progress=False)
        entities, facts = memory.writer.lookup.vectors, memory.writer.fact_vectors
        names.clear()
        transactions.clear()
        memory.ingest([Document(text="Ada Lovelace met Charles Babbage in London in 1833.")], progress=False)
        assert "memory/memory_version" not in names
        [batch] = transactions
        assert {"memory/write_passages", "memory/create_facts"} <= set(batch)
        assert batch[0] == "memory/bump_version" and "memory/write_documents" in batch
        writes = [n for n in names if n.endswith("_lease") or n == "memory/bump_version"]
        assert writes == ["memory/acquire_lease", "memory/bump_version", "memory/release_lease"]
        before = entities.counts, entities.loads  # (the fact copy: read by adjudication alone, off here)
        with MemoryGraph(space=space, store=store, embedder=minilm, extractor="offline",
                         adjudication=False) as other:
            other.ingest(documents[4:6], progress=False)
        memory.ingest(documents[6:8], progress=False)
        assert entities.counts > before[0] and entities.loads > before[1]
        assert (sorted(entities.current().ids), sorted(facts.current().ids)) == stored_ids(store, space)


def test_after_its_own_retraction_the_writer_drops_the_deleted_entities_without_reading_again(
        store, minilm, two_spaces, monkeypatch):
    """A retraction under the writer's lease: the entities it deleted (its tombstones) leave the entity copy,
    the fact copy holds on (no fact goes), neither counts nor reads the space again, and both equal the
    space's vectors, after the retraction and after the next write. With the tombstones pruned, not all
    deletions are known: the copy is read again."""
    from memgraph_neo4j.repository import documents as stored_documents

    space = two_spaces[0]

    def stored() -> tuple[list[str], list[str]]:
        return stored_ids(store, space)

    docs = corpus()
    with MemoryGraph(space=space, store=store, embedder=minilm, extractor="offline", adjudication=False) as memory:
        memory.ingest(docs[:12], batch_size=4, progress=False)
        entities, facts = memory.writer.lookup.vectors, memory.writer.fact_vectors
        facts.current()  # adjudication is off: nothing else reads the fact copy
        before = [(v.counts, v.loads) for v in (entities, facts)]
        held_before = sorted(entities.current().ids)
        report = memory.retract([d.id for d in memory.documents()][:4])
        assert report.entities_deleted > 0
        assert (sorted(entities.current().ids), sorted(facts.current().ids)) == stored()
        assert len(entities.current()) == len(held_before) - report.entities_deleted
        memory.ingest(docs[12:14], progress=False)  # the next write: no count, no read
        assert [(v.counts, v.loads) for v in (entities, facts)] == before
        assert (sorted(entities.current().ids), sorted(facts.current().ids)) == stored()

        monkeypatch.setattr(stored_documents, "TOMBSTONE_VERSIONS", 0)  # the retraction prunes its tombstones
        memory.retract([d.id for d in memory.documents()][:2])
        assert (sorted(entities.current().ids), sorted(facts.current().ids)) == stored()
        assert entities.loads == before[0][1] + 1  # read again: its deletions were not all known


def test_a_fresh_writer_over_the_cap_writes_through_the_index_then_builds_its_copy(store, test_store, minilm,
                                                                                   two_spaces):
    """A fresh process above the cap does not read and train its copies for a one-message write (311-389 s
    at 100k passages): the server's index answers, so the write is the one a writer that always asks the
    index makes, node for node. Once the index's answers have cost what the copy would, the copy is built."""
    renting, index = two_spaces
    documents = corpus()
    for space in two_spaces:
        with build(store, space, minilm, documents[:16]):
            pass
    assert len(stored_ids(store, renting)[0]) > 30  # over the cap below
    message = [Document(text="Neil Armstrong met Buzz Aldrin and Michael Collins in Houston in 1969.")]
    with MemoryGraph(space=renting, store=store, embedder=minilm, extractor="offline",
                     config=MemoryConfig(exact_neighbours_max=30)) as a, \
            MemoryGraph(space=index, store=store, embedder=minilm, extractor="offline",
                        config=MemoryConfig(exact_neighbours_max=0)) as b:
        a.ingest(message, progress=False)
        b.ingest(message, progress=False)
        entities, facts = a.writer.lookup.vectors, a.writer.fact_vectors
        assert entities.loads == 0 and facts.loads == 0 and entities.index_seconds > 0
        built, other = graph(a, test_store), graph(b, test_store)
        similar, other_similar = built.pop("similar"), other.pop("similar")
        assert built == other
        assert similar.keys() == other_similar.keys()
        entities.index_served(len(stored_ids(store, renting)[0]) * entities.build_seconds_per_vector)
        a.ingest(documents[16:18], progress=False)
        assert entities.loads == 1 and isinstance(entities.current(), IvfVectors)
        assert sorted(entities.current().ids) == stored_ids(store, renting)[0]
