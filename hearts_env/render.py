"""A readable text picture of one game: hands by suit, the current trick, points and totals,
drawn by the game's family (its record's renderer: ``texts`` in each family's folder)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from hearts_env.games import family

if TYPE_CHECKING:
    from hearts_env.table import Table


def render_text(table: Table, game: int = 0) -> str:
    """The state of ``game`` in ``table`` as a multi-line string (its family's renderer)."""
    return family(table.rules).renderer(table.state, table.rules, game)
