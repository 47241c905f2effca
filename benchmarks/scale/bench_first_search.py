"""The first search after a process start, on a space that exists (issue 26: <= 10 s at 100k passages).

    python benchmarks/scale/bench_first_search.py --space scale_100k [--starts 3] [--baseline-ref REF]

Per code tree (this checkout, and REF's in a temporary worktree), `--starts` fresh Python processes one
after the other, each: import the package, open a MemoryGraph on the space (defaults: memgraphrag, the
local PageRank engine), search one MuSiQue question, then a second one (warm), and close. Each tree keeps
its copies in a directory of its own (MEMGRAPH_COPIES_DIR under /tmp), emptied before its first process:
the first start is cold (reads the space from Neo4j and keeps the copies), the later ones load the files.
Reported per start: wall from the interpreter's start to the first result, of which import, open and the
first search; the copies loaded; the second search; peak RSS. Nothing is written to the space.
Results: benchmarks/results/scale/first_search.{json,md} (`--out` for another stem).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "benchmarks" / "results" / "scale"
QUESTIONS = ["Who is the spouse of the Green performer?", "When was the director of Titanic born?"]


def child(tree: str, space: str, began: float) -> None:
    """One start: prints one JSON line (times in s from `began`, the parent's clock before the exec)."""
    t0 = time.time()
    sys.path.insert(0, tree)
    from memgraph_neo4j.api import MemoryGraph

    t1 = time.time()
    memory = MemoryGraph(space=space)
    t2 = time.time()
    first = memory.search(QUESTIONS[0], top_k=5)
    t3 = time.time()
    memory.search(QUESTIONS[1], top_k=5)
    t4 = time.time()
    files = getattr(memory.retrieval, "files", None)
    loaded = getattr(files, "loads", None)
    seconds = getattr(files, "load_seconds", None)
    memory.close()
    peak = next(int(line.split()[1]) for line in Path("/proc/self/status").read_text().splitlines()
                if line.startswith("VmHWM"))
    print(json.dumps({"start_s": round(t0 - began, 2), "import_s": round(t1 - t0, 2), "open_s": round(t2 - t1, 2),
                      "first_search_s": round(t3 - t2, 2), "to_first_result_s": round(t3 - began, 2),
                      "second_search_ms": round((t4 - t3) * 1000, 1), "copies_loaded": loaded, "load_seconds": seconds,
                      "hits": len(first.passages), "peak_rss_mb": round(peak / 1024)}))


def run(tree: Path, space: str, copies_dir: Path) -> dict:
    env = {**os.environ, "PYTHONPATH": str(tree), "MEMGRAPH_COPIES_DIR": str(copies_dir), "TQDM_DISABLE": "1"}
    began = time.time()
    proc = subprocess.run([sys.executable, __file__, "--child", str(tree), "--space", space, "--began", str(began)],
                          cwd=tree, env=env, stdout=subprocess.PIPE, text=True, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def git(*argv: str, cwd: Path = ROOT) -> str:
    return subprocess.run(["git", "-C", str(cwd), *argv], capture_output=True, text=True, check=True).stdout.strip()


def report(result: dict) -> str:
    lines = [f"# First search after a process start: space {result['space']} ({result['passages']} passages)", "",
             f"{result['cpus']} cores, load average {result['load_before'][0]:.1f} before. Each start a fresh "
             "process; the first of each code cold (its copies directory emptied), the others loading the "
             "files the one before kept. Seconds, but the second search (ms).", "",
             "| code | start | to first result | import | open | first search | copies loaded | second search ms "
             "| peak RSS MB | files loaded, s |", "|---|---|---|---|---|---|---|---|---|---|"]
    for name, code in result["codes"].items():
        for i, r in enumerate(code["starts"]):
            lines.append(f"| {name} ({code['commit']}) | {'cold' if i == 0 else f'loaded {i}'} | "
                         f"**{r['to_first_result_s']}** | {r['import_s']} | {r['open_s']} | {r['first_search_s']} | "
                         f"{r['copies_loaded']} | {r['second_search_ms']} | {r['peak_rss_mb']} | "
                         f"{', '.join(f'{k} {v}' for k, v in (r.get('load_seconds') or {}).items())} |")
    lines.append("")
    for name, code in result["codes"].items():
        loaded = [r["to_first_result_s"] for r in code["starts"][1:]]
        if loaded:
            lines.append(f"- {name}: loaded starts, median to first result {statistics.median(loaded):.2f} s")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--space", required=True)
    parser.add_argument("--starts", type=int, default=3, help="processes per code: one cold, then loaded ones")
    parser.add_argument("--baseline-ref", default=None)
    parser.add_argument("--out", default="first_search")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--began", type=float, default=0.0, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.space, args.began)
        return
    sys.path.insert(0, str(ROOT))
    from memgraph_neo4j.repository.stats import StatsRepository
    from memgraph_neo4j.server.connection import open_store

    with open_store() as store:
        counts = StatsRepository(store, args.space).memory_stats().nodes.get("Passage")
        passages = counts.total if counts is not None else 0
    if not passages:
        raise SystemExit(f"--space {args.space}: no passages in it; build it first (bench_scale.py replicated --keep)")
    result = {"space": args.space, "passages": passages, "cpus": os.cpu_count(), "load_before": os.getloadavg(),
              "codes": {}}
    with tempfile.TemporaryDirectory(prefix="bench_first_") as tmp:
        trees = {"current": (ROOT, git("describe", "--always", "--dirty"))}
        if args.baseline_ref:
            base = Path(tmp) / "baseline"
            subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(base), args.baseline_ref],
                           check=True)
            trees["baseline"] = (base, git("rev-parse", "--short", "HEAD", cwd=base))
        try:
            for name, (tree, commit) in trees.items():
                copies = Path(tmp) / f"copies_{name}"
                shutil.rmtree(copies, ignore_errors=True)
                starts = []
                for i in range(args.starts):
                    starts.append(run(tree, args.space, copies))
                    print(f"  {name} start {i}: {starts[-1]}", file=sys.stderr, flush=True)
                result["codes"][name] = {"commit": commit, "starts": starts}
        finally:
            if args.baseline_ref:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(Path(tmp) / "baseline")],
                               check=False)
    result["load_after"] = os.getloadavg()
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / f"{args.out}.json").write_text(json.dumps(result, indent=2) + "\n")
    (OUT / f"{args.out}.md").write_text(text := report(result))
    print(text)


if __name__ == "__main__":
    main()
