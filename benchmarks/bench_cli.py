"""One-shot CLI latency: `memgraph-neo4j query ...` from process start to printed result, server warm.

For this checkout and for a baseline git ref (a temporary `git worktree`, run with this venv's Python
and `PYTHONPATH` pointing at its tree), each method is timed `--runs` times, alternating between the
two trees so that both see the same machine load. Wall time of the whole process (`python -m
memgraph_neo4j.cli.main query ...`); one untimed warm-up run per tree and method first (page cache,
server caches, the model start-up cache of this checkout).

    python benchmarks/bench_cli.py [--runs 9] [--baseline-ref HEAD] [--space musique]

Results: benchmarks/results/cli.json: per tree and method the wall-time median, p95, min and max in
seconds, and the median CPU time (user + system) of the process, which other load on the machine
disturbs less than the wall time (the server's share of the work is only in the wall time).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
QUESTIONS = [
    "Who is the spouse of the Green performer?",
    "When was the author of The Hobbit born?",
    "What county is the city where the film director was born in?",
    "Which country did the composer of the opera come from?",
]


def p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]


def run_once(tree: Path, method: str, space: str, question: str) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the process: user + system, less sensitive to other load)."""
    env = {**os.environ, "PYTHONPATH": str(tree)}
    cmd = [sys.executable, "-m", "memgraph_neo4j.cli.main", "query", question, "--space", space,
           "--method", method]
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.perf_counter()
    proc = subprocess.run(cmd, cwd=tree, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - began
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - usage.ru_utime + after.ru_stime - usage.ru_stime
    if proc.returncode != 0 or "1." not in proc.stdout:
        raise RuntimeError(f"{' '.join(cmd)} in {tree} failed ({proc.returncode}): {proc.stderr[-800:]}")
    return wall, cpu


def summary(runs: list[tuple[float, float]]) -> dict[str, float]:
    values, cpu = [wall for wall, _ in runs], [c for _, c in runs]
    return {"median_s": round(statistics.median(values), 3), "p95_s": round(p95(values), 3),
            "min_s": round(min(values), 3), "max_s": round(max(values), 3), "runs": len(values),
            "cpu_median_s": round(statistics.median(cpu), 3)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--baseline-ref", default="HEAD", help="git ref to compare with (default: HEAD, "
                        "i.e. the uncommitted changes against the last commit)")
    parser.add_argument("--space", default="musique")
    parser.add_argument("--methods", default="dense,memgraphrag")
    parser.add_argument("--no-baseline", action="store_true")
    parser.add_argument("--tree", type=Path, default=ROOT, help="the code tree to measure as current "
                        "(default: this checkout)")
    args = parser.parse_args()
    methods = [m for m in args.methods.split(",") if m]
    result: dict = {"machine": {"cpus": os.cpu_count(), "load_before": os.getloadavg()},
                    "space": args.space, "runs": args.runs, "command": "python -m memgraph_neo4j.cli.main "
                    "query QUESTION --space SPACE --method METHOD", "baseline_ref": None, "methods": {}}
    with tempfile.TemporaryDirectory() as tmp:
        trees = {"current": args.tree.resolve()}
        if not args.no_baseline:
            base = Path(tmp) / "baseline"
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(base),
                            args.baseline_ref], check=True)
            trees["baseline"] = base
            commit = subprocess.run(["git", "-C", str(base), "rev-parse", "--short", "HEAD"], capture_output=True,
                                    text=True, check=True).stdout.strip()
            result["baseline_ref"] = f"{args.baseline_ref} ({commit})"
        try:
            for method in methods:
                times: dict[str, list[tuple[float, float]]] = {name: [] for name in trees}
                for tree in trees.values():  # warm-up, not timed
                    run_once(tree, method, args.space, QUESTIONS[0])
                for i in range(args.runs):
                    question = QUESTIONS[i % len(QUESTIONS)]
                    order = list(trees.items()) if i % 2 == 0 else list(trees.items())[::-1]
                    for name, tree in order:  # alternate, so both see the same load
                        times[name].append(run_once(tree, method, args.space, question))
                result["methods"][method] = {name: summary(values) for name, values in times.items()}
                print(method, json.dumps(result["methods"][method]), flush=True)
        finally:
            if "baseline" in trees:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(trees["baseline"])],
                               check=False)
    result["machine"]["load_after"] = os.getloadavg()
    result["current_tree"] = str(args.tree.resolve())
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "cli.json").write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
