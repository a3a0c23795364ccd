"""Duplicate tournaments: seating, statistics, files, resuming, and the command line."""

from __future__ import annotations

import json

import pytest

from benchmarks.cli import main
from benchmarks.tournament import Tournament, TournamentConfig, format_report, rotations, seating


def test_seating_fills_the_table_and_rotations_skip_repeats() -> None:
    assert seating(["a", "b"], 4) == ["a", "b", "a", "b"]
    assert rotations(["a", "b", "a", "b"]) == [["a", "b", "a", "b"], ["b", "a", "b", "a"]]
    assert len(rotations(["a", "b", "c", "d"])) == 4
    with pytest.raises(ValueError, match="do not fit"):
        seating(["a", "b", "c", "d"], 3)


def test_every_agent_holds_every_hand() -> None:
    t = Tournament(TournamentConfig(agents=["strategy", "ducker", "ducker", "random"], deals=2, tables=2))
    for seat in range(4):
        held = {t.names[a] for a in t.agent_of[:, seat]}
        assert held == {"strategy", "ducker", "random"}


def test_report_holds_the_documented_fields() -> None:
    config = TournamentConfig(agents=["strategy", "ducker", "lowest", "random"], deals=40, tables=20, seed=1)
    report = Tournament(config, progress=False).run()
    assert report["preset"] == "hearts" and report["deals"] == 40
    names = [row["name"] for row in report["agents"]]
    assert names == ["strategy", "ducker", "lowest", "random"]
    for row in report["agents"]:
        assert row["illegal"] == 0 and row["ci95"] > 0 and row["seat_deals"] == 40 * 4
    assert len(report["pairs"]) == 6
    # Every deal's points are shared out: the four agents' means add up to the mean points per deal.
    assert sum(row["mean_points"] for row in report["agents"]) >= 26 - 1e-6
    assert "strategy" in format_report(report)


def test_games_are_counted_and_won() -> None:
    config = TournamentConfig(agents=["strategy", "random"], deals=60, tables=2, seed=2)
    report = Tournament(config, progress=False).run()
    games = {row["name"]: row["games"] for row in report["agents"]}
    assert games["strategy"] == games["random"] > 0
    # Two seats each: the per-seat win rates of a game add up to one half per agent pair.
    assert sum(row["win_rate"] for row in report["agents"]) == pytest.approx(0.5)


def test_a_tournament_resumes_to_the_same_result(tmp_path) -> None:
    config = TournamentConfig(
        agents=["strategy", "random"], preset="black_maria", deals=30, tables=10, seed=3
    )
    whole = Tournament(config, progress=False).run()
    path = tmp_path / "t.json"
    first = Tournament(config, json_path=path, progress=False).run(max_rounds=1)
    assert first["deals"] == 10
    resumed = Tournament(config, json_path=path, progress=False).run()
    assert resumed["agents"] == whole["agents"] and resumed["deals"] == 30
    other = TournamentConfig(agents=["strategy", "random"], preset="black_maria", deals=30, tables=10, seed=4)
    with pytest.raises(ValueError, match="different tournament"):
        Tournament(other, json_path=path)


def test_cli_writes_json_csv_and_png(tmp_path, capsys) -> None:
    out = tmp_path / "ladder.json"
    code = main(["tournament", "--agents", "strategy,lowest", "--deals", "20", "--tables", "10",
                 "--option", "hearts_break=heart_or_queen", "--json", str(out), "--quiet"])  # fmt: skip
    assert code == 0
    report = json.loads(out.read_text())
    assert {"preset", "deals", "agents"} <= set(report)
    assert {"name", "mean_points", "ci95"} <= set(report["agents"][0])
    assert report["rules"]["hearts_break"] == "heart_or_queen"
    assert (tmp_path / "ladder.csv").exists() and (tmp_path / "ladder_pairs.csv").exists()
    assert (tmp_path / "ladder.png").stat().st_size > 0
    assert "strategy - lowest" in capsys.readouterr().out
