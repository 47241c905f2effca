"""The Neo4j driver without its pandas and pyarrow support, for one-shot commands.

`import neo4j` imports pandas and pyarrow when they are installed (graphdatascience installs both), only
to accept their values as query parameters: ~0.4 s of a one-shot `query` for nothing, as the program
never passes them. `import_driver()` imports the driver with both hidden; they import normally afterwards
(the graphdatascience client and the evaluation harness read their results into pandas as before).
"""

from __future__ import annotations

import sys

HIDDEN = ("pandas", "pyarrow", "pyarrow.compute")


def import_driver() -> None:
    """Import `neo4j` with pandas and pyarrow hidden, unless something imported one of them already."""
    if "neo4j" in sys.modules or any(name in sys.modules for name in HIDDEN):
        return
    for name in HIDDEN:
        sys.modules[name] = None  # type: ignore[assignment]  # `import pandas` raises ImportError
    try:
        import neo4j  # noqa: F401
    finally:
        for name in HIDDEN:
            if sys.modules.get(name, ...) is None:
                del sys.modules[name]
