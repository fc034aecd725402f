"""The compact terminal board: ``redzone run --board``.

One table per resolution: each player's life and poison before and after,
then each permanent with its power/toughness and keywords, what it did in
combat (attacked what, blocked what) and how it ended (damage marked,
counters, where it went). A violation's objects are marked. Written with
:mod:`rich`: colour on a terminal, plain text when piped.
"""

from __future__ import annotations

from rich.console import Console
from rich.table import Table

from redzone.formats.outcome import Resolution
from redzone.frontends.terminal import Text
from redzone.kernel import display


def board_table(res: Resolution) -> Table:
    """The table ``redzone run --board`` prints."""
    scenario = res.scenario
    before = scenario.state
    after = res.result.state if res.result is not None else None
    flagged: set[str] = set()
    if res.error is not None:
        flagged.update(res.error.objects)
        for v in res.error.violations:
            flagged.update(v.objects)
    title = f"{scenario.file} · rules {scenario.rules} · " + (
        "resolved" if res.error is None else f"ILLEGAL: {res.error.kind} [{res.error.rule}]")
    table = Table(title=title, title_justify="left", show_lines=False)
    for column in ("", "before", "combat", "after"):
        table.add_column(column, overflow="fold")
    for team, members in before.teams.items():
        # 810.4, 810.9: the team's one shared life total (each member shows it).
        was = display.team_text(before, members)
        now = display.team_text(after, members) if after is not None else "-"
        table.add_row(Text(f"team {team}", style="bold"), was, f"{', '.join(members)} [810.4]",
                      now)
    for pid, player in before.players.items():
        end = after.players[pid] if after is not None else None
        was = display.player_text(player).partition(": ")[2]
        now = display.player_text(end).partition(": ")[2] if end is not None else "-"
        mark = " (active)" if pid == before.active_player else ""
        table.add_row(Text(pid + mark, style="bold"), was, "",
                      Text(now, style="red" if end is not None and end.lost else ""))
    blocks = {b: tuple(a) for b, a in scenario.blocks.items()}
    # Tokens created during the combat (mobilize, myriad: 111.2, 508.4) are
    # rows too: before combat they didn't exist.
    created = [p for pid, p in (after or res.failed_state or before).objects.items()
               if pid not in before.objects]
    for perm in [*before.objects.values(), *created]:
        role = []
        if perm.id in scenario.attacks:
            role.append(f"attacks {scenario.attacks[perm.id]}")
        if perm.id in blocks:
            role.append(f"blocks {' and '.join(blocks[perm.id])}")
        end_perm = after.objects.get(perm.id) if after is not None else None
        status = ("-" if end_perm is None else
                  ", ".join(display.permanent_status(end_perm)) or "unharmed")
        label = Text(f"  {perm.id}", style="bold red" if perm.id in flagged else "")
        if perm.token:
            label.append(" (token)", style="dim")
        if perm.id in flagged:
            label.append("  !", style="bold red")
        summary = ("-" if perm.id not in before.objects
                   else display.permanent_summary(perm))
        table.add_row(label, summary, "; ".join(role), status)
    if res.error is not None:
        for v in res.error.violations:
            table.add_row(Text("  !", style="bold red"), Text(f"[{v.rule}] {v.message}"), "", "")
    return table


def render_compact_board(console: Console, res: Resolution) -> None:
    """Print the compact board."""
    console.print(board_table(res), soft_wrap=True)


__all__ = ["board_table", "render_compact_board"]
