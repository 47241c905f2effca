"""The eval plots keep every title, axis label and tick label inside the canvas, whatever the methods'
labels, and no label starts with whitespace (no database: a report of every method and ablation)."""

from __future__ import annotations

import random

import pytest

pytest.importorskip("matplotlib")

from memgraph_neo4j.evaluation.report import figures, plots  # noqa: E402
from memgraph_neo4j.evaluation.runner import EvalReport  # noqa: E402
from memgraph_neo4j.evaluation.variants import ABLATION_VARIANTS, METHOD_VARIANTS, variants  # noqa: E402


def _report(keys: list[str], ablations: list[str]) -> EvalReport:
    rng = random.Random(7)
    methods = []
    for v in variants(keys, ablations):
        latencies = [rng.lognormvariate(3, 1) for _ in range(40)]
        methods.append({"key": v.key, "label": v.label, "method": v.method, "p50_ms": 21.5, "p95_ms": 180.25,
                        **{f"recall@{k}": rng.random() for k in (1, 2, 5, 10)}, "latencies_ms": latencies})
    return EvalReport(dataset="musique_train", path="x", space="musique_train", questions=40, gold="titles",
                      methods=methods, health={"degree_distribution": {"0": 3, "1": 40, "2": 12, "17": 1}})


@pytest.mark.parametrize("keys, ablations", [
    (list(METHOD_VARIANTS), list(ABLATION_VARIANTS)),  # every label, the longest ones included
    (["memgraphrag"], ["paper-no-adjudication"]),  # few panels: the title is wider than the axes
])
def test_every_text_of_every_plot_lies_inside_the_canvas(keys, ablations):
    made = figures(_report(keys, ablations))
    assert [name for name, _ in made] == ["recall.png", "latency.png", "degree.png"]
    for name, fig in made:
        fig.canvas.draw()
        renderer = fig.canvas.get_renderer()
        drawn = fig.get_tightbbox(renderer)  # everything drawn: titles, axis and tick labels, texts (inches)
        inside = fig.bbox_inches
        assert (drawn.x0 >= inside.x0 - 0.01 and drawn.y0 >= inside.y0 - 0.01 and drawn.x1 <= inside.x1 + 0.01
                and drawn.y1 <= inside.y1 + 0.01), f"{name}: drawn {drawn.extents} beyond the canvas {inside.extents}"
        named = [fig._suptitle, fig._supxlabel,
                 *[t for ax in fig.axes for t in (ax.title, ax._left_title, ax.xaxis.label)]]
        texts = [t for t in named if t is not None and t.get_text()]
        assert any("40 questions" in t.get_text() or "degree" in t.get_text() for t in texts), name
        for text in texts:
            box = text.get_window_extent(renderer)
            assert fig.bbox.containsx(box.x0) and fig.bbox.containsx(box.x1) and fig.bbox.containsy(box.y1), \
                f"{name}: {text.get_text()!r} at {box.extents} beyond {fig.bbox.extents}"
        labels = [t for ax in fig.axes for t in [*ax.get_xticklabels(), *texts]]
        assert [t.get_text() for t in labels if t.get_text()[:1].isspace()] == [], name


def test_labels_start_with_a_word_and_the_plots_are_written(tmp_path):
    every = [*METHOD_VARIANTS.values(), *ABLATION_VARIANTS.values()]
    assert [v.key for v in every if v.label != v.label.strip()] == []  # report.json shows them as they are
    written = plots(_report(["dense", "bm25"], []), tmp_path)
    assert [p.name for p in written] == ["recall.png", "latency.png", "degree.png"]
    assert all(p.stat().st_size > 5000 for p in written)
