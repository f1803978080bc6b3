"""Shared fixtures: a real SQLite event log, the Flask app, and a real server process."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest
import requests

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def table(tmp_path):
    from companion.store import EventStore
    from companion.table import Table

    store = EventStore(tmp_path / "companion.sqlite3")
    yield Table(store)
    store.close()


@pytest.fixture
def app(table):
    from web import create_app

    app = create_app(table, {"TESTING": True})
    return app


@pytest.fixture
def client(app):
    return app.test_client()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """``python -m companion serve`` in its own process, on a free port, with its own data dir."""

    def __init__(self, data_dir: Path, extra: tuple[str, ...] = ()) -> None:
        self.data_dir = data_dir
        self.extra = extra
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.proc: subprocess.Popen | None = None

    def start(self, timeout: float = 20.0) -> Server:
        env = dict(os.environ, PYTHONUNBUFFERED="1")
        self.log = open(self.data_dir / f"server-{time.time():.0f}.log", "w")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "companion", "serve", "--host", "127.0.0.1", "--port", str(self.port),
             "--data", str(self.data_dir), "--pins", "mock", "--camera", "none", *self.extra],
            cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"server exited early, see {self.log.name}")
            try:
                if requests.get(self.url + "/api/health", timeout=1).ok:
                    return self
            except requests.RequestException:
                time.sleep(0.1)
        raise RuntimeError("server did not start in time")

    def kill(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(10)

    def stop(self) -> None:
        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(10)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        if getattr(self, "log", None):
            self.log.close()


@pytest.fixture
def server_factory(tmp_path):
    servers: list[Server] = []

    def make(extra: tuple[str, ...] = ()) -> Server:
        srv = Server(tmp_path, extra)
        servers.append(srv)
        return srv

    yield make
    for srv in servers:
        srv.stop()


@pytest.fixture
def server(server_factory):
    return server_factory().start()
