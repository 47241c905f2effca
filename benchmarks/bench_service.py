"""The memory service against in-process use, on the MuSiQue memory (`raw_musique`, bench_read_after_write.py
builds it: 1,890 passages, the REAL gpt-3.5 OpenIE triples, MiniLM).

    python benchmarks/bench_service.py [--space raw_musique] [--requests 96] [--oneshot 15] [--rounds 8]
                                       [--big-space scale_100k]

One `memgraph-neo4j serve` subprocess (confined to the space, a spool of its own), warmed by a few searches;
then, each measured in this run:
1. throughput and latency (p50 / p95, client wall per request) of memgraphrag searches of MuSiQue questions
   at 1, 4 and 16 concurrent clients (threads of urllib requests, `--requests` per level);
2. a one-shot `memgraph-neo4j query` as a new process, wall time from start to exit: through the service
   (MEMGRAPH_SERVICE_URL: cli/remote_query.py) and in process (the baseline), alternating (`--oneshot` each);
3. search after write: `--rounds` of (write one message: POST /texts?wait=true; the next search; one more),
   client wall; beside it the in-process figure of "Read after write" (bench_read_after_write.py's child, a
   long-lived MemoryGraph on the same space, same rounds) run in this run. The messages are retracted after.
4. the service's RSS (VmRSS, VmHWM) warm, and with `--big-space` a second service on that space after one
   search (what one warm process costs at that size).
Results: benchmarks/results/service.{json,md,png}. Connection: NEO4J_URI / NEO4J_PASSWORD, else the local
launcher's server. Targets (issue 31): one-shot query p50 <= 150 ms; search after write within 20 ms of
in process.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from bench_read_after_write import passages_in, run_child  # noqa: E402
from read_after_write_child import message  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "benchmarks" / "results"
DATA = Path(os.environ.get("MEMGRAPH_SHARED_DATA") or ROOT.parent / "shared" / "data") / "musique_train"
LEVELS = (1, 4, 16)


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1) if ordered else float("nan")


def post(url: str, path: str, body: dict, timeout: float = 600) -> tuple[float, dict]:
    request = urllib.request.Request(url + path, json.dumps(body).encode(), {"Content-Type": "application/json"})
    began = time.perf_counter()
    with urllib.request.urlopen(request, timeout=timeout) as response:
        payload = json.loads(response.read())
    return (time.perf_counter() - began) * 1000, payload


def rss(pid: int) -> dict[str, float]:
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = round(int(value.split()[0]) / 1024, 1)
    return {"rss_mb": fields.get("VmRSS"), "peak_rss_mb": fields.get("VmHWM")}


class Service:
    """`memgraph-neo4j serve` as a subprocess, until `stop()`."""

    def __init__(self, space: str, port: int) -> None:
        self.spool = tempfile.mkdtemp(prefix="bench-service-")
        env = {**os.environ, "MEMGRAPH_SERVICE_DIR": self.spool}
        env.pop("MEMGRAPH_SERVICE_URL", None)
        self.url = f"http://127.0.0.1:{port}"
        self.process = subprocess.Popen([sys.executable, "-m", "memgraph_neo4j.cli.entry", "serve", "--port",
                                         str(port), "--space", space, "--no-mcp"], env=env,
                                        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 300
        while True:
            try:
                with urllib.request.urlopen(self.url + "/readyz", timeout=5) as response:
                    if response.status == 200:
                        break
            except OSError:
                pass
            if self.process.poll() is not None or time.monotonic() > deadline:
                said = self.process.stderr.read() if self.process.stderr else ""
                raise SystemExit(f"the service did not start: {said}")
            time.sleep(0.2)

    def stop(self) -> None:
        self.process.terminate()
        self.process.wait(120)


def concurrency(url: str, space: str, questions: list[str], requests: int) -> list[dict]:
    rows = []
    for clients in LEVELS:
        latencies: list[float] = []
        errors = [0]
        lock = threading.Lock()
        todo = list(range(requests))

        def client() -> None:
            while True:
                with lock:
                    if not todo:
                        return
                    i = todo.pop()
                try:
                    ms, _ = post(url, f"/v1/spaces/{space}/search", {"query": questions[i % len(questions)]})
                except OSError:
                    with lock:
                        errors[0] += 1
                    continue
                with lock:
                    latencies.append(ms)

        began = time.perf_counter()
        threads = [threading.Thread(target=client) for _ in range(clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        wall = time.perf_counter() - began
        rows.append({"clients": clients, "requests": requests, "errors": errors[0],
                     "throughput_per_s": round(len(latencies) / wall, 1), "p50_ms": pct(latencies, 0.5),
                     "p95_ms": pct(latencies, 0.95)})
        print(f"  {clients:>2} clients: {rows[-1]['throughput_per_s']} searches/s, p50 {rows[-1]['p50_ms']} ms, "
              f"p95 {rows[-1]['p95_ms']} ms, {errors[0]} errors", flush=True)
    return rows


def oneshot(url: str, space: str, questions: list[str], runs: int) -> dict:
    """Wall time of `memgraph-neo4j query` as a new process, through the service and in process, alternating."""
    command = [sys.executable, "-m", "memgraph_neo4j.cli.entry", "query"]
    times: dict[str, list[float]] = {"service": [], "in_process": []}
    for i in range(runs):
        for mode in ("service", "in_process"):
            env = {**os.environ}
            env.pop("MEMGRAPH_SERVICE_URL", None)
            if mode == "service":
                env["MEMGRAPH_SERVICE_URL"] = url
            began = time.perf_counter()
            done = subprocess.run([*command, questions[i % len(questions)], "--space", space], env=env,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
            if done.returncode != 0:
                raise SystemExit(f"query ({mode}) failed: {done.stderr}")
            times[mode].append((time.perf_counter() - began) * 1000)
    return {mode: {"runs": len(v), "p50_ms": round(statistics.median(v), 1), "p95_ms": pct(v, 0.95)}
            for mode, v in times.items()}


def search_after_write(url: str, space: str, questions: list[str], rounds: int) -> dict:
    nonce, written = random.getrandbits(31), []
    writes, after, later = [], [], []
    try:
        post(url, f"/v1/spaces/{space}/texts?wait=true", {"text": message(-1, nonce)})  # first-use loads
        for i in range(rounds):
            ms, job = post(url, f"/v1/spaces/{space}/texts?wait=true", {"text": message(i, nonce)})
            if job["status"] != "done":
                raise SystemExit(f"write {i} did not finish: {job}")
            written += job["doc_ids"]
            writes.append(ms)
            after.append(post(url, f"/v1/spaces/{space}/search", {"query": questions[i % len(questions)]})[0])
            later.append(post(url, f"/v1/spaces/{space}/search", {"query": questions[-1 - i]})[0])
    finally:
        first = post(url, f"/v1/spaces/{space}/texts?wait=true", {"text": message(-1, nonce)})[1]["doc_ids"]
        post(url, f"/v1/spaces/{space}/documents/retract", {"ids": written + first})
    return {"rounds": rounds, "write_p50_ms": pct(writes, 0.5), "after_write_p50_ms": pct(after, 0.5),
            "after_write_p95_ms": pct(after, 0.95), "search_after_that_p50_ms": pct(later, 0.5)}


def in_process(space: str, rounds: int) -> dict:
    """bench_read_after_write.py's child on the same space: a long-lived MemoryGraph, same kind of rounds."""
    args = argparse.Namespace(rounds=rounds, warm=20, method="memgraphrag", engine="local", top_k=5,
                              fixed_messages=False)
    child = run_child(ROOT, "in-process", space, args)
    rounds_ = child["rounds"]
    return {"rounds": len(rounds_), "warm_p50_ms": pct(child["warm_ms"], 0.5),
            "write_p50_ms": pct([r["write_ms"] for r in rounds_], 0.5),
            "after_write_p50_ms": pct([r["search_after_write_ms"] for r in rounds_], 0.5),
            "after_write_p95_ms": pct([r["search_after_write_ms"] for r in rounds_], 0.95),
            "search_after_that_p50_ms": pct([r["after_that_ms"] for r in rounds_], 0.5),
            "rss_mb": child.get("rss_mb"), "peak_rss_mb": child.get("peak_rss_mb")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--space", default="raw_musique")
    parser.add_argument("--port", type=int, default=8791)
    parser.add_argument("--requests", type=int, default=96)
    parser.add_argument("--oneshot", type=int, default=15)
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--big-space", default=None)
    parser.add_argument("--out", default="service")
    args = parser.parse_args()
    from memgraph_neo4j.evaluation.datasets import load_dataset
    from memgraph_neo4j.server.connection import open_store

    with open_store() as store:
        if not passages_in(store, args.space):
            raise SystemExit(f"space {args.space!r} is empty: build it with benchmarks/bench_read_after_write.py "
                             "--sizes musique")
    questions = [q.question for q in load_dataset(DATA).questions]
    random.Random(7).shuffle(questions)
    result: dict = {"space": args.space, "machine": f"{os.cpu_count()} cores", "date": time.strftime("%Y-%m-%d")}
    service = Service(args.space, args.port)
    try:
        for q in questions[:5]:  # warm: the copies read, the first searches' loads
            post(service.url, f"/v1/spaces/{args.space}/search", {"query": q})
        result["rss_warm"] = rss(service.process.pid)
        print("concurrency", flush=True)
        result["concurrency"] = concurrency(service.url, args.space, questions, args.requests)
        print("one-shot query", flush=True)
        result["oneshot"] = oneshot(service.url, args.space, questions, args.oneshot)
        print(f"  {result['oneshot']}", flush=True)
        print("search after write (service)", flush=True)
        result["after_write_service"] = search_after_write(service.url, args.space, questions, args.rounds)
        print(f"  {result['after_write_service']}", flush=True)
        result["rss_after_writes"] = rss(service.process.pid)
    finally:
        service.stop()
    print("search after write (in process)", flush=True)
    result["after_write_in_process"] = in_process(args.space, args.rounds)
    print(f"  {result['after_write_in_process']}", flush=True)
    if args.big_space:
        big = Service(args.big_space, args.port + 1)
        try:
            ms = post(big.url, f"/v1/spaces/{args.big_space}/search", {"query": questions[0]})[0]
            ms2 = post(big.url, f"/v1/spaces/{args.big_space}/search", {"query": questions[1]})[0]
            result["big"] = {"space": args.big_space, "first_search_ms": round(ms, 1),
                             "second_search_ms": round(ms2, 1), **rss(big.process.pid)}
        finally:
            big.stop()
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / f"{args.out}.json").write_text(json.dumps(result, indent=2) + "\n")
    (RESULTS / f"{args.out}.md").write_text(markdown(result))
    plot(result, RESULTS / f"{args.out}.png")
    print((RESULTS / f"{args.out}.md").read_text())


def markdown(r: dict) -> str:
    lines = [f"# The memory service on {r['space']} ({r['machine']}, {r['date']})", "",
             "| clients | searches/s | p50 ms | p95 ms | errors |", "|---|---|---|---|---|"]
    lines += [f"| {c['clients']} | {c['throughput_per_s']} | {c['p50_ms']} | {c['p95_ms']} | {c['errors']} |"
              for c in r["concurrency"]]
    o = r["oneshot"]
    lines += ["", "| one-shot `query` (new process, wall) | p50 ms | p95 ms |", "|---|---|---|",
              f"| through the service | {o['service']['p50_ms']} | {o['service']['p95_ms']} |",
              f"| in process (baseline) | {o['in_process']['p50_ms']} | {o['in_process']['p95_ms']} |",
              f"| ratio | {o['in_process']['p50_ms'] / o['service']['p50_ms']:.1f}x | |"]
    s, p = r["after_write_service"], r["after_write_in_process"]
    lines += ["", "| search after write | write p50 ms | next search p50 ms | p95 ms |", "|---|---|---|---|"]
    for name, row in (("service (client wall)", s), ("in process", p)):
        lines.append(f"| {name} | {row['write_p50_ms']} | {row['after_write_p50_ms']} | {row['after_write_p95_ms']} |")
    after = r["rss_after_writes"]
    lines += ["", f"Service RSS warm: {r['rss_warm']['rss_mb']} MB; after the writes {after['rss_mb']} MB "
                  f"(peak {after['peak_rss_mb']} MB)."]
    if "big" in r:
        b = r["big"]
        lines.append(f"At {b['space']}: first search {b['first_search_ms']} ms, second {b['second_search_ms']} ms, "
                     f"RSS {b['rss_mb']} MB (peak {b['peak_rss_mb']} MB).")
    return "\n".join(lines) + "\n"


def plot(r: dict, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, (left, right) = plt.subplots(1, 2, figsize=(10, 4), layout="constrained")
    clients = [c["clients"] for c in r["concurrency"]]
    left.plot(clients, [c["p50_ms"] for c in r["concurrency"]], "o-", label="p50")
    left.plot(clients, [c["p95_ms"] for c in r["concurrency"]], "s--", label="p95")
    left.set_xscale("log", base=2)
    left.set_xticks(clients, [str(c) for c in clients])
    left.set_xlabel("concurrent clients")
    left.set_ylabel("search latency (ms)")
    left.set_title(f"memgraphrag searches on {r['space']}")
    left.legend()
    o = r["oneshot"]
    bars = {"query via service": o["service"]["p50_ms"], "query in process": o["in_process"]["p50_ms"]}
    right.bar(list(bars), list(bars.values()), color=["tab:green", "tab:gray"])
    right.axhline(150, color="tab:red", linestyle=":", label="target 150 ms")
    right.set_ylabel("one-shot query, wall p50 (ms)")
    right.set_title("a new process per query")
    right.legend()
    fig.savefig(path, dpi=120)
    plt.close(fig)


if __name__ == "__main__":
    main()
