"""Footprint of the real server: time from process start to the page, and memory (RSS) with the
camera loop and the roll watcher running (and one phone watching the tray preview).

    .venv/bin/python bench/footprint.py [--runs 3] [--settle 6] [--camera synthetic]

Targets (issue 6): page served <= 3 s after the process starts; RSS <= 150 MB (a Zero 2 W has
512 MB). RSS is VmRSS from /proc/<pid>/status, summed over the server and any children.
"""

from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
START_TARGET_S = 3.0
RSS_TARGET_MB = 150.0


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def descendants(pid: int) -> list[int]:
    out = [pid]
    for p in out:
        try:
            for task in os.listdir(f"/proc/{p}/task"):
                text = Path(f"/proc/{p}/task/{task}/children").read_text()
                out.extend(int(c) for c in text.split())
        except OSError:
            continue
    return out


def rss_mb(pid: int) -> float:
    total = 0
    for p in descendants(pid):
        try:
            for line in Path(f"/proc/{p}/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    total += int(line.split()[1])
        except OSError:
            continue
    return total / 1024


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of the server and its children so far."""
    total = 0
    for p in descendants(pid):
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
        except (OSError, IndexError, ValueError):
            continue
    return total / os.sysconf("SC_CLK_TCK")


def get(url: str, timeout: float = 1.0) -> bytes | None:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as resp:
            return resp.read() if resp.status == 200 else None
    except OSError:
        return None


def watch_preview(url: str, seconds: float, counter: list[int]) -> None:
    """One phone watching the MJPEG preview for ``seconds``."""
    end = time.monotonic() + seconds
    try:
        with urllib.request.urlopen(url, timeout=5) as resp:
            while time.monotonic() < end:
                chunk = resp.read(16384)
                if not chunk:
                    break
                counter[0] += chunk.count(b"--frame")
    except OSError:
        pass


def one_run(camera: str, settle: float, viewer_s: float) -> dict:
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory(prefix="footprint-") as data:
        argv = [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(port),
                "--data", data, "--camera", camera, "--pins", "mock"]
        t0 = time.monotonic()
        proc = subprocess.Popen(argv, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                env=dict(os.environ, PYTHONUNBUFFERED="1"))
        try:
            ready = None
            while time.monotonic() - t0 < 30:
                if proc.poll() is not None:
                    raise RuntimeError(f"the server exited with {proc.returncode}: {' '.join(argv)}")
                if get(base + "/", timeout=0.5):
                    ready = time.monotonic() - t0
                    break
                time.sleep(0.02)
            if ready is None:
                raise RuntimeError("the page did not answer within 30 s")
            samples = []
            cpu0, t_cpu = cpu_seconds(proc.pid), time.monotonic()
            end = time.monotonic() + settle
            while time.monotonic() < end:  # camera loop + roll watcher, nobody watching
                samples.append(rss_mb(proc.pid))
                time.sleep(0.25)
            cpu_idle = (cpu_seconds(proc.pid) - cpu0) / (time.monotonic() - t_cpu) * 100
            frames = [0]
            viewer = threading.Thread(target=watch_preview, args=(base + "/api/camera/preview.mjpg", viewer_s, frames))
            viewer.start()
            viewing = []
            while viewer.is_alive():
                viewing.append(rss_mb(proc.pid))
                time.sleep(0.25)
            import json

            status = json.loads(get(base + "/api/camera") or b"{}")
            return {"start_s": ready, "rss_idle_mb": max(samples), "cpu_pct": cpu_idle, "rss_preview_mb": max(viewing or [0.0]),
                    "preview_frames": frames[0], "camera": status.get("state"),
                    "watcher": status.get("watcher"), "fps": status.get("fps"), "backend": status.get("backend")}
        finally:
            proc.terminate()
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--settle", type=float, default=6.0, help="seconds with the camera loop running")
    ap.add_argument("--preview", type=float, default=4.0, help="seconds with one phone on the preview")
    ap.add_argument("--camera", default="synthetic")
    args = ap.parse_args()
    runs = []
    for i in range(args.runs):
        r = one_run(args.camera, args.settle, args.preview)
        runs.append(r)
        print(f"run {i + 1}: page after {r['start_s']:.2f} s; RSS {r['rss_idle_mb']:.1f} MB with the camera loop, "
              f"{r['rss_preview_mb']:.1f} MB with one preview viewer ({r['preview_frames']} frames); "
              f"CPU {r['cpu_pct']:.0f} % of one core; "
              f"camera {r['camera']} ({r['backend']}, {r['fps']} fps), watcher {r['watcher']}", flush=True)
    start = statistics.median(r["start_s"] for r in runs)
    idle = statistics.median(r["rss_idle_mb"] for r in runs)
    view = statistics.median(r["rss_preview_mb"] for r in runs)
    print()
    print(f"median time to page:              {start:.2f} s   (target <= {START_TARGET_S:.0f} s: "
          f"{'ok' if start <= START_TARGET_S else 'OVER'}; ratio {start / START_TARGET_S:.2f})")
    print(f"median RSS, camera + watcher:     {idle:.1f} MB (target <= {RSS_TARGET_MB:.0f} MB: "
          f"{'ok' if idle <= RSS_TARGET_MB else 'OVER'}; ratio {idle / RSS_TARGET_MB:.2f})")
    print(f"median RSS, + one preview viewer: {view:.1f} MB (target <= {RSS_TARGET_MB:.0f} MB: "
          f"{'ok' if view <= RSS_TARGET_MB else 'OVER'}; ratio {view / RSS_TARGET_MB:.2f})")
    cpu = statistics.median(r["cpu_pct"] for r in runs)
    print(f"median CPU, camera + watcher:     {cpu:.0f} % of one core (this machine; a Zero 2 W core is ~5-8x slower)")
    print(f"roll watcher: {runs[-1]['watcher']} (\"unavailable\" means vision.watcher is not importable)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
