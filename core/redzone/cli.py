"""The ``redzone`` command line (a first version: ``demo``)."""

from __future__ import annotations

import click

from redzone.engine import Engine


@click.group()
def cli() -> None:
    """redzone: Magic: The Gathering combat, resolved by the Comprehensive Rules."""


@cli.command()
def demo() -> None:
    """Resolve a bundled example combat and print what happened."""
    engine = Engine()
    state = engine.game(["alice", "bob"], [
        engine.creature("regrower", "alice", 4, 3, name="Elvish Regrower"),
        engine.creature("spawn", "bob", 2, 3, name="Vampire Spawn"),
        engine.creature("hunter", "bob", 1, 1, name="Helpful Hunter"),
    ])
    result = engine.resolve(state, {"regrower": "bob"},
                            {"spawn": "regrower", "hunter": "regrower"})
    for event in result.events:
        fields = {k: v for k, v in event.to_json().items() if k not in ("step", "kind", "rule")}
        click.echo(f"{event.step:20} {event.kind:20} {event.rule:8} {fields}")


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    try:
        cli.main(args=argv, prog_name="redzone", standalone_mode=False)
    except click.ClickException as exc:
        exc.show()
        return exc.exit_code
    return 0
