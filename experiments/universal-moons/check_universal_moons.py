"""The moon table (universal_moons.py beside this file) reads a leaderboard's cells and plays the
reference alone. Run by hand, not by `make test`:
`python -m pytest experiments/universal-moons/check_universal_moons.py`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import universal_moons

from evaluation import leaderboard


def test_the_moon_table_reads_the_cells_and_plays_the_reference_alone(tmp_path):

    board = leaderboard.run(
        ["lowest"], ["hearts", "black_lady_foster"], deals=8, tables=4, directory=tmp_path, progress=False
    )
    rows = universal_moons.moon_rows(board, "lowest", tmp_path)
    assert [r["preset"] for r in rows] == ["hearts"]  # Foster's Black Lady has no moon
    record = json.loads(Path(board["cells"][0]["record"]).read_text())
    mine = next(a for a in record["agents"] if a["name"] == "lowest")
    assert (rows[0]["moons_against"], rows[0]["seat_deals"]) == (mine["moons_allowed"], mine["seat_deals"])
    alone = json.loads((tmp_path / "strategy-only__hearts-4p.json").read_text())
    assert [a["name"] for a in alone["agents"]] == ["strategy"]
    assert rows[0]["reference_seat_deals"] == alone["agents"][0]["seat_deals"] == 8 * 4
    Path(board["cells"][0]["record"]).unlink()
    with pytest.raises(FileNotFoundError, match="run the leaderboard's command"):
        universal_moons.moon_rows(board, "lowest", tmp_path)
