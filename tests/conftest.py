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
             "--data", str(self.data_dir), "--pins", "mock", *(self.extra if "--camera" in self.extra else ("--camera", "none", *self.extra))],
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


# -- a real browser: Debian's chromium driven by Playwright (never a downloaded browser) --------------
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-quic"]
SPEECH_SPY = """
    window.__spoken = [];
    const realSpeak = speechSynthesis.speak.bind(speechSynthesis);
    speechSynthesis.speak = (u) => { window.__spoken.push({text: u.text, lang: u.lang}); try { realSpeak(u); } catch (e) {} };
"""


@pytest.fixture(scope="session")
def browser():
    import shutil

    if not shutil.which("chromium") and not os.path.exists(CHROMIUM):  # pragma: no cover
        pytest.skip("Debian chromium is not installed (make test installs it)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield b
        b.close()


@pytest.fixture
def phone(browser):
    """``phone(lang)``: a new phone-sized page; ``page.errors`` collects JavaScript errors and
    ``window.__spoken`` what the page asked the Web Speech API to say."""
    contexts = []

    def make(lang: str = "el-GR"):
        ctx = browser.new_context(viewport={"width": 390, "height": 844}, locale=lang, is_mobile=True,
                                  has_touch=True)
        contexts.append(ctx)
        page = ctx.new_page()
        page.add_init_script(SPEECH_SPY)
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.errors = errors
        return page

    yield make
    for ctx in contexts:
        ctx.close()


@pytest.fixture
def mock_factory():
    """gpiozero's mock pins for the test (buttons, LED, buzzer), restored afterwards."""
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    old = Device.pin_factory
    Device.pin_factory = factory = MockFactory()
    yield factory
    factory.reset()
    Device.pin_factory = old
