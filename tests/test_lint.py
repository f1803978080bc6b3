"""The code stays ruff-clean (the rules are in pyproject.toml)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_ruff_is_clean():
    res = subprocess.run([sys.executable, "-m", "ruff", "check", "--output-format", "concise",
                          "companion", "vision", "hardware", "web", "tests", "bench"],
                         cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stdout + res.stderr
