"""GDS names its races only in messages; the driver may hand them over as the cause of another error."""

from __future__ import annotations

from neo4j.exceptions import ResultFailedError

from memgraph_neo4j.retrieval.graph_search import projection_vanished
from memgraph_neo4j.retrieval.projection import error_text

VANISHED = "Failed to invoke procedure `gds.pageRank.stream`: Graph with name `mg_x_7_p` does not exist on database"


def wrapped(message: str) -> Exception:
    try:
        try:
            raise RuntimeError(message)
        except RuntimeError as cause:
            raise ResultFailedError(None, "The result has failed. Either this result or another result in the "
                                          "same transaction has encountered an error.") from cause
    except ResultFailedError as error:
        return error


def test_a_vanished_projection_is_recognised_behind_a_result_failed_error():
    assert projection_vanished(RuntimeError(VANISHED))
    assert projection_vanished(wrapped(VANISHED))
    assert not projection_vanished(wrapped("Graph with name `g` already exists"))
    assert not projection_vanished(RuntimeError("The result has failed."))


def test_error_text_follows_the_chain_once():
    error = wrapped("inner")
    assert error_text(error).endswith(" | inner")
    loop = RuntimeError("a")
    loop.__cause__ = loop
    assert error_text(loop) == "a"
