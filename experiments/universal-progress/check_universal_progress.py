"""The progress curves (universal_progress.py beside this file) read each checkpoint's decisions from
the committed board. Run by hand, not by `make test`:
`python -m pytest experiments/universal-progress/check_universal_progress.py`.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import universal_progress

ROOT = Path(__file__).resolve().parents[2]


def test_the_progress_curves_read_each_checkpoints_decisions(tmp_path):
    pytest.importorskip("torch")

    board = json.loads((ROOT / "results" / "universal" / "progress_hearts.json").read_text())
    curves = universal_progress.curves(board)
    assert len(curves) == 18 and all(len(points) == len(board["agents"]) for points in curves.values())
    hearts = curves[("hearts", 4)]
    assert hearts[0][0] == 23_592_960 and [d for d, _, _ in hearts] == sorted(d for d, _, _ in hearts)
    cell = next(c for c in board["cells"] if c["preset"] == "hearts" and c["agent"] == board["agents"][0])
    assert hearts[0][1:] == (cell["diff"], cell["ci95"])
    out = universal_progress.main(
        [str(ROOT / "results" / "universal" / "progress_hearts.json"), "--png", str(tmp_path / "c.png")]
    )
    assert out.stat().st_size > 10_000
    first = universal_progress.curves(board, board["agents"][:2])
    assert all(len(points) == 2 for points in first.values()) and first[("hearts", 4)] == hearts[:2]
    line = ",".join(board["agents"][:3])
    universal_progress.main([str(ROOT / "results" / "universal" / "progress_hearts.json"), "--png",
                             str(tmp_path / "l.png"), "--line", line])  # fmt: skip
    assert (tmp_path / "l.png").stat().st_size > 10_000
    with pytest.raises(ValueError, match="--line: nosuch not rows"):
        universal_progress.main(
            [str(ROOT / "results" / "universal" / "progress_hearts.json"), "--png", str(tmp_path / "x.png"),
             "--line", "nosuch"]
        )  # fmt: skip
