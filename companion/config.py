"""The companion's configuration: embedded defaults, overridden by ``<data dir>/config.toml``."""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path

import platformdirs
import tomli_w

DEFAULTS_FILE = Path(__file__).with_name("default_config.toml")


def default_data_dir() -> Path:
    return Path(platformdirs.user_data_dir("tabletop-companion", appauthor=False))


def _merge(base: dict, over: dict) -> dict:
    out = copy.deepcopy(base)
    for key, value in over.items():
        if isinstance(value, dict) and isinstance(out.get(key), dict):
            out[key] = _merge(out[key], value)
        else:
            out[key] = value
    return out


def load(data_dir: Path) -> dict:
    with DEFAULTS_FILE.open("rb") as fh:
        config = tomllib.load(fh)
    user = data_dir / "config.toml"
    if user.exists():
        with user.open("rb") as fh:
            config = _merge(config, tomllib.load(fh))
    return config


def save(data_dir: Path, config: dict) -> None:
    """Writes the whole config atomically (a power cut leaves the old or the new file)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    tmp = data_dir / "config.toml.tmp"
    tmp.write_bytes(tomli_w.dumps(config).encode())
    tmp.replace(data_dir / "config.toml")
