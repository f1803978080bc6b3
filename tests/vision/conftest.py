"""Fixtures for the vision tests: the committed dev-photo sample and the synthetic renderer."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))  # so tests can `import synth_pips`

from dev_sample import SAMPLE  # noqa: E402


@pytest.fixture(scope="session")
def sample_images() -> list[Path]:
    images = sorted(SAMPLE.glob("*.jpg"))
    assert images, f"the committed sample is missing: {SAMPLE}"
    return images
