"""The throughput benchmark's target check (benchmarks/throughput.py): which rows it judges."""

from __future__ import annotations

from benchmarks.throughput import TARGETS, Row, check_targets, table_text


def _rows(rate: float, caller_rate: float = 1.0) -> list[Row]:
    rows = [Row("openspiel", "hearts", 1, True, 100_000.0)]
    for fmt, procs, _, _ in TARGETS:
        for player, value in (("caller", caller_rate), ("shard", rate)):
            rows.append(Row("vector_env", "hearts", 4096, True, value, procs, fmt, player))
    return rows


def test_targets_are_judged_on_the_step_random_rows() -> None:
    ok, text = check_targets(_rows(20e6))  # every shard row far above every target
    assert ok and text.count(" met") == len(TARGETS) and "below target" not in text
    ok, text = check_targets(_rows(1.0, caller_rate=20e6))  # the caller rows alone do not count
    assert not ok and text.count("below target") == len(TARGETS)


def test_a_ratio_target_needs_the_openspiel_ratio_too() -> None:
    rows = _rows(13e6)  # packed 2 procs: 13M/s but only 13e6 / 300k = 43x OpenSpiel (target 50x)
    rows[0] = Row("openspiel", "hearts", 1, True, 300_000.0)
    ok, text = check_targets(rows)
    line = next(line for line in text.splitlines() if "packed   2 procs" in line)
    assert not ok and "43.3x OpenSpiel, target 50x) below target" in line


def test_an_unmeasured_target_is_missed_and_the_table_names_the_player() -> None:
    rows = [r for r in _rows(20e6) if not (r.format == "uint8" and r.player == "shard")]
    ok, text = check_targets(rows)
    assert not ok and "uint8    1 procs: not measured" in text
    table = table_text(rows)
    assert "shard" in table and "caller" in table and "200.0x" in table
