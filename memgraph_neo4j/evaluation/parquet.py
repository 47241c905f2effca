"""The GraphRAG-Bench corpus: ``*.parquet`` files with columns ``corpus_name`` and ``context`` (pyarrow)."""

from __future__ import annotations

from pathlib import Path

from memgraph_neo4j.evaluation.datasets import BENCH_FORMAT, DatasetError
from memgraph_neo4j.ingest.readers import Document


def read_parquets(parquets: list[Path]) -> list[Document]:
    try:
        import pyarrow.parquet as pq
    except ImportError:
        raise DatasetError(f"{parquets[0]}: reading parquet needs pyarrow; run pip install pyarrow "
                           f"(expected {BENCH_FORMAT})") from None
    docs: list[Document] = []
    for file in parquets:
        try:
            schema = pq.read_schema(file)
            if not {"corpus_name", "context"} <= set(schema.names):
                raise DatasetError(f"{file}: columns {schema.names}, missing corpus_name or context; "
                                   f"expected {BENCH_FORMAT}")
            rows = pq.read_table(file, columns=["corpus_name", "context"]).to_pylist()
        except DatasetError:
            raise
        except Exception as exc:  # pyarrow raises ArrowInvalid, OSError, ... on a damaged file
            raise DatasetError(f"{file}: not a readable parquet file ({exc}); expected {BENCH_FORMAT}") from None
        for i, row in enumerate(rows):
            if not isinstance(row["corpus_name"], str) or not isinstance(row["context"], str):
                raise DatasetError(f"{file}: row {i} has a non-string corpus_name or context; expected {BENCH_FORMAT}")
            docs.append(Document(title=row["corpus_name"], text=row["context"], source=str(file),
                                 metadata={"corpus": "graphrag_bench", "index": len(docs)}))
    if not docs:
        raise DatasetError(f"{parquets[0]}: no rows; expected {BENCH_FORMAT}")
    return docs
