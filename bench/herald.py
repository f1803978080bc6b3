"""Herald benchmark: draws per second through the HTTP API, and the latency from a draw to its
arrival at 10 live phones (server-sent events), against a real `companion serve` process.

    .venv/bin/python bench/herald.py [--draws 500] [--clients 10]
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(data: str, port: int) -> subprocess.Popen:
    proc = subprocess.Popen(
        [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(port), "--data", data,
         "--pins", "mock", "--camera", "none", "--threads", "48"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=dict(os.environ, PYTHONUNBUFFERED="1"),
    )
    url = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            if requests.get(url + "/api/health", timeout=1).ok:
                return proc
        except requests.RequestException:
            time.sleep(0.05)
    proc.kill()
    raise SystemExit("the server did not start")


def listen(url: str, arrivals: dict, ready: threading.Event, stop: threading.Event) -> None:
    try:
        with requests.get(url, stream=True, timeout=60) as res:
            ready.set()
            event = None
            for line in res.iter_lines(decode_unicode=True):
                if stop.is_set():
                    return
                if line.startswith("event:"):
                    event = line[6:].strip()
                elif line.startswith("data:") and event == "state":
                    version = json.loads(line[5:])["version"]
                    arrivals.setdefault(version, time.perf_counter())
    except requests.RequestException:
        return


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--draws", type=int, default=500)
    ap.add_argument("--clients", type=int, default=10)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory() as data:
        port = free_port()
        proc = start_server(data, port)
        url = f"http://127.0.0.1:{port}"
        try:
            game = requests.post(f"{url}/api/games", json={"players": ["Άννα", "Ben", "Γιώργος"]}, timeout=5).json()
            stream = f"{url}/api/games/{game['id']}/stream"
            stop = threading.Event()
            clients = []
            for _ in range(args.clients):
                arrivals: dict = {}
                ready = threading.Event()
                th = threading.Thread(target=listen, args=(stream, arrivals, ready, stop), daemon=True)
                th.start()
                ready.wait(10)
                clients.append(arrivals)
            time.sleep(0.5)
            session = requests.Session()
            session.headers["Authorization"] = f"Bearer {game['host_token']}"
            sent: dict[int, float] = {}
            acks = []
            t0 = time.perf_counter()
            for _ in range(args.draws):
                start = time.perf_counter()
                res = session.post(f"{url}/api/games/{game['id']}/actions", json={"type": "draw"}, timeout=10)
                acks.append(time.perf_counter() - start)
                sent[res.json()["version"]] = start
            elapsed = time.perf_counter() - t0
            time.sleep(1.0)
            stop.set()
            latencies = [arr[v] - t for arrivals in clients for v, t in sent.items()
                         if (arr := arrivals) and v in arr]
            missing = sum(1 for arrivals in clients for v in sent if v not in arrivals)
        finally:
            proc.terminate()
            proc.wait(10)
    print(f"draws through the HTTP API: {args.draws} in {elapsed:.2f} s = {args.draws / elapsed:.0f} draws/s "
          f"(each acknowledged after an fsync'd SQLite commit)")
    print(f"acknowledgement latency: median {statistics.median(acks) * 1000:.1f} ms, "
          f"p99 {pct(acks, 0.99) * 1000:.1f} ms")
    print(f"draw -> arrival at {args.clients} live clients (SSE): median {statistics.median(latencies) * 1000:.1f} ms, "
          f"p99 {pct(latencies, 0.99) * 1000:.1f} ms, {len(latencies)} arrivals, {missing} coalesced "
          f"(a client that falls behind gets the newest state, not every one)")


if __name__ == "__main__":
    main()
