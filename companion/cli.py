"""The ``companion`` command: ``serve`` (the main job), ``read`` (dice in photos), ``teach``.

Each subcommand lives in its own module so the CLI stays small:
``companion/serve.py``, ``companion/read_cmd.py``, ``companion/teach_cmd.py``.
"""

from __future__ import annotations

import importlib

import click

SUBCOMMANDS = {
    "serve": "companion.serve:serve",
    "read": "companion.read_cmd:read",
    "teach": "companion.teach_cmd:teach",
}


class LazyGroup(click.Group):
    """Imports a subcommand's module only when it runs, so ``companion read`` never loads Flask."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(SUBCOMMANDS)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        target = SUBCOMMANDS.get(name)
        if target is None:
            return None
        module, attr = target.split(":")
        try:
            return getattr(importlib.import_module(module), attr)
        except (ImportError, AttributeError):
            return None


@click.group(cls=LazyGroup)
@click.version_option(package_name="tabletop-companion")
def main() -> None:
    """Tabletop companion: reads dice and bag tokens, keeps the rules, serves every phone."""
