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


# ---------------------------------------------------------------------- resume files
RESUMABLE = TournamentConfig(agents=["strategy", "random"], deals=6, tables=2, seed=5)
"""Two tables of three rounds: one round played leaves a resumable record."""


@pytest.fixture
def record(tmp_path):
    """A tournament file after one of three rounds, and the config that wrote it."""
    path = tmp_path / "t.json"
    Tournament(RESUMABLE, json_path=path, progress=False).run(max_rounds=1)
    return path


def edit(path, change) -> None:
    saved = json.loads(path.read_text())
    change(saved["progress"])
    path.write_text(json.dumps(saved))


def _set(key, value):
    return lambda progress: progress.update({key: value})


@pytest.mark.parametrize(
    ("write", "message"),
    [
        (lambda p: p.write_text(""), "it is empty"),
        (lambda p: p.write_text(p.read_text()[:200]), "not valid JSON"),
        (lambda p: p.write_text("rounds_done: 1"), "not valid JSON"),
        (lambda p: p.write_bytes(b"\xff\xfe\x00garbage"), "not text"),
        (lambda p: p.write_text("[1, 2]"), "no 'config' and 'progress' entries"),
        (lambda p: p.write_text('{"config": {}}'), "no 'config' and 'progress' entries"),
    ],
)
def test_a_damaged_tournament_file_is_one_clear_error(record, write, message) -> None:
    write(record)
    with pytest.raises(ValueError, match=message) as error:
        Tournament(RESUMABLE, json_path=record, progress=False)
    assert str(record) in str(error.value)


def _counter(name, key, value):
    return lambda progress: progress["counters"][name].update({key: value})


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (_set("rounds_done", 4), "rounds_done must be an int from 0 to 3, got 4"),
        (_set("rounds_done", -1), "rounds_done must be an int from 0 to 3, got -1"),
        (_set("rounds_done", 1.5), "rounds_done must be an int"),
        (_set("rounds_done", 2), r"per_deal must hold rounds_done x tables = 4 rows, got 2"),
        (_set("rounds_done", 0), "per_deal must hold rounds_done x tables = 0 rows"),
        (_set("elapsed_s", -3), "elapsed_s must be a non-negative number"),
        (lambda p: p["per_deal"][0].append(1.0), "per_deal row 0 must be 2 finite numbers"),
        (lambda p: p["per_deal"][1].__setitem__(0, "x"), "per_deal row 1 must be 2 finite numbers"),
        (lambda p: p["per_deal"][1].__setitem__(0, float("nan")), "per_deal row 1 must be 2 finite numbers"),
        (lambda p: p["counters"].pop("random"), "counters must be kept for exactly the agents"),
        (lambda p: p["counters"].update(lowest=p["counters"]["random"]), "exactly the agents"),
        (_counter("random", "illegal", -1), "counter 'illegal' of 'random' must be a non-negative int"),
        (_counter("random", "games", 1.5), "counter 'games' of 'random' must be a non-negative int"),
        (_counter("strategy", "seat_deals", 7), "'strategy' played 8 seat-deals in 1 rounds"),
        (_counter("strategy", "wins", 3.0), "won 3.0 of 0 games"),
        (lambda p: p["counters"]["random"].pop("wins"), "counters of 'random' must be"),
        (_set("table_state", None), "table_state must hold"),
        (lambda p: p["table_state"]["totals"].pop(), r"'totals' must be a \(4, 4\) list of ints"),
        (lambda p: p["table_state"]["totals"][0].__setitem__(0, True), "'totals' must be a"),
        (lambda p: p["table_state"]["game_over"].__setitem__(0, 1), "'game_over' must be a"),
        (lambda p: p["table_state"]["deal_index"].__setitem__(0, -2), "'deal_index' must not be negative"),
        (lambda p: p.pop("table_state"), "expected the entries"),
        (lambda p: p.update(extra=1), "expected the entries"),
    ],
)
def test_an_inconsistent_tournament_record_is_one_clear_error(record, change, message) -> None:
    edit(record, change)
    with pytest.raises(ValueError, match=message) as error:
        Tournament(RESUMABLE, json_path=record, progress=False)
    assert str(record) in str(error.value) and "progress is inconsistent" in str(error.value)


def test_a_record_read_back_resumes(record) -> None:
    report = Tournament(RESUMABLE, json_path=record, progress=False).run()
    assert report["deals"] == 6 and report == Tournament(RESUMABLE, progress=False).run() | {
        "elapsed_s": report["elapsed_s"],
        "progress": report["progress"] | {"elapsed_s": report["progress"]["elapsed_s"]},
    }
    assert isinstance(report["progress"]["table_state"]["totals"], list)  # plain lists, not arrays


@pytest.mark.parametrize(
    ("change", "error", "message"),
    [
        ({"deals": 0}, ValueError, "deals must be a positive integer, got 0"),
        ({"tables": -1}, ValueError, "tables must be a positive integer, got -1"),
        ({"deals": 2.5}, TypeError, "deals must be a positive integer, got float 2.5"),
        ({"seed": -1}, ValueError, "seed must be a non-negative integer"),
        ({"agents": "strategy"}, TypeError, "agents must be a list of agent specs"),
        ({"agents": ["nobody"]}, ValueError, "unknown agent 'nobody'"),
        ({"num_players": True}, TypeError, "num_players must be a positive integer"),
    ],
)
def test_a_bad_config_is_refused(change, error, message) -> None:
    with pytest.raises(error, match=message):
        Tournament(TournamentConfig(**change), progress=False)
