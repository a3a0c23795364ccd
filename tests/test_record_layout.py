"""A tournament record's layout: one field a line, its resume state (``progress``) on one line —
what the committed records under results/ hold, so that a rerun writes them back the same."""

from __future__ import annotations

import json
from pathlib import Path

from evaluation.record import record_text
from hearts_cli import main

ROOT = Path(__file__).resolve().parent.parent


def test_committed_records_are_written_back_byte_for_byte() -> None:
    records = [path for path in sorted((ROOT / "results").rglob("*.json"))
               if '"progress": {' in path.read_text(encoding="utf-8")][:20]  # fmt: skip
    assert records, "no tournament record under results/"
    for path in records:
        text = path.read_text(encoding="utf-8")
        assert record_text(json.loads(text)) == text, path


def test_a_tournament_writes_its_progress_on_one_line(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    argv = ["tournament", "--preset", "hearts", "--agents", "lowest,random", "--deals", "8",
            "--seed", "1", "--json", str(path), "--quiet"]  # fmt: skip
    assert main(argv) == 0
    lines = path.read_text(encoding="utf-8").splitlines()
    progress = [line for line in lines if line.startswith(' "progress": ')]
    assert len(progress) == 1 and json.loads(progress[0].split(": ", 1)[1].rstrip(","))["rounds_done"] >= 1
    assert json.loads(path.read_text(encoding="utf-8"))["deals"] == 8
