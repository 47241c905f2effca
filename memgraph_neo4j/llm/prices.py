"""Prices of well-known chat models, so that a cost budget (`ingest --budget-cost`) and the reports' cost
work without the user looking them up; `--price-input` / `--price-output` (`Price.per_million`) override.

USD per million tokens, standard tier (no batch or cached-input discount), as OpenAI's pricing page listed
them in March 2026. Exact model names only: a dated snapshot may cost otherwise (gpt-4o-2024-05-13 was
$5 / $15), so it needs the options.
"""

from __future__ import annotations

from memgraph_neo4j.llm.chat import Price

__all__ = ["PER_MILLION", "price_for"]

PER_MILLION: dict[str, tuple[float, float]] = {  # model -> (input, output), USD per 1M tokens, March 2026
    "gpt-3.5-turbo": (0.50, 1.50),
    "gpt-4o": (2.50, 10.00),
    "gpt-4o-mini": (0.15, 0.60),
    "gpt-4.1": (2.00, 8.00),
    "gpt-4.1-mini": (0.40, 1.60),
    "gpt-4.1-nano": (0.10, 0.40),
    "gpt-5": (1.25, 10.00),
    "gpt-5-mini": (0.25, 2.00),
    "gpt-5-nano": (0.05, 0.40),
    "o3": (2.00, 8.00),
    "o3-mini": (1.10, 4.40),
    "o4-mini": (1.10, 4.40),
}


def price_for(model: str | None, input_per_million: float | None = None,
              output_per_million: float | None = None) -> Price | None:
    """The price of `model`: the table's, with either side replaced by the one given; None when the model is
    not in the table and neither is given. One side given for a model the table lacks: ValueError."""
    for name, value in (("input", input_per_million), ("output", output_per_million)):
        if value is not None and not value >= 0:  # also NaN
            raise ValueError(f"price_{name}={value!r}: give a price >= 0 in USD per million tokens")
    listed = PER_MILLION.get(model or "")
    if input_per_million is None and output_per_million is None:
        return Price.per_million(*listed) if listed else None
    if listed is None and (input_per_million is None or output_per_million is None):
        missing = "--price-output" if output_per_million is None else "--price-input"
        raise ValueError(f"model {model!r} is not in the price table (llm/prices.py): give {missing} too "
                         "(USD per million tokens)")
    listed = listed or (0.0, 0.0)
    return Price.per_million(listed[0] if input_per_million is None else input_per_million,
                             listed[1] if output_per_million is None else output_per_million)
