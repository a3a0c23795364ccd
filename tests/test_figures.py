"""The numbers README.md, results/README.md, the docs and the experiments quote are those of their files.

Every measured figure of those documents stands in a block rendered by :mod:`tools.figures`
from the JSON files its table names; these tests fail when a block and its files
disagree (a file re-measured without ``python -m tools.figures --write``, a number edited
by hand), when a measured number stands outside every block, and when a file does not say which
runs wrote it. ``tools.reproduce`` checks a few cheap files against today's code.
"""

from __future__ import annotations

import re
from fnmatch import fnmatch
from pathlib import Path

import pytest

from hearts_env.presets import make_rules
from tools import figures, reproduce

DOCUMENTS = {path.relative_to(figures.ROOT).as_posix(): path for path in figures.DOCUMENTS}

MEASURED = re.compile(
    r"\d\.\d+ ± \d"  # a mean and its interval
    r"|\d(?:\.\d+)?\s?[kM]/s"  # a rate: 4.88M/s, 71.3k/s
    r"|\d[\d,]{4,} decisions/s"  # 3,145,728 decisions/s
)
"""What a measured number looks like in the prose."""


@pytest.mark.parametrize("name", DOCUMENTS)
def test_every_block_is_its_files_rendering(name: str) -> None:
    path = DOCUMENTS[name]
    text = path.read_text(encoding="utf-8")
    if name in ("README.md", "results/README.md"):
        assert figures.blocks(text), f"{name} has no figure blocks"
    stale = figures.stale(path)
    assert not stale, f"{name}: blocks {stale} differ from their files: run python -m tools.figures --write"


@pytest.mark.parametrize("name", DOCUMENTS)
def test_no_measured_number_stands_outside_a_block(name: str) -> None:
    prose = figures.outside_blocks(DOCUMENTS[name].read_text(encoding="utf-8"))
    found = [m.group(0) for m in MEASURED.finditer(prose)]
    assert not found, f"{name}: measured numbers outside figure blocks (put them in a block): {found}"


def test_the_block_markers_pair_up_and_name_known_figures() -> None:
    for name, path in DOCUMENTS.items():
        text = path.read_text(encoding="utf-8")
        opened, closed = text.count("<!-- figure: "), text.count("<!-- /figure -->")
        assert opened == closed == len(figures.blocks(text)), name
        unknown = {block for block, _ in figures.blocks(text)} - set(figures.FIGURES)
        assert not unknown, f"{name}: unknown figure blocks {unknown}"


def test_a_changed_file_makes_its_block_stale(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The check can fail: a document whose number was edited by hand is caught."""
    text = DOCUMENTS["README.md"].read_text(encoding="utf-8")
    name, body = next((n, b) for n, b in figures.blocks(text) if n == "ladder-short")
    edited = text.replace(body, body.replace("±", "+-", 1))
    copy = tmp_path / "README.md"
    copy.write_text(edited, encoding="utf-8")
    assert figures.stale(copy) == [name]
    assert figures.render(edited) == text


def _run_records(data: object) -> list:
    """A file's runs: ``runs``, or a leaderboard's one ``run``."""
    if not isinstance(data, dict):
        return []
    return data.get("runs") or ([data["run"]] if isinstance(data.get("run"), dict) else [])


def test_every_figure_renders_from_files_that_record_their_runs() -> None:
    """Each figure's inputs (:data:`figures.FIGURES`) exist, and each file says which runs wrote it."""
    for name in figures.FIGURES:
        try:
            figures.render_figure(name)
        except FileNotFoundError as error:
            pytest.fail(f"the figure {name} reads a file that is not there: {error}")
    for path in figures.inputs():
        runs = _run_records(figures._load(path))
        where = path.relative_to(figures.ROOT)
        assert runs, f"{where} records no runs (command, commit, date)"
        for run in runs:
            assert run.get("command"), f"{where}: a run without its command"
            assert "commit" in run and str(run.get("date", "")).startswith("20"), f"{where}: {run}"


def test_a_glob_that_matches_nothing_is_a_missing_file() -> None:
    with pytest.raises(FileNotFoundError, match="no file matches"):
        figures.read("results/nosuch/*.json")


@pytest.mark.parametrize(
    "name",
    ["ladder_hearts.json", "presets/black_maria_3.json", "smear/smear_partnership-4.json",
     "smear/ppo-vs-smear-4.json"],
)  # fmt: skip
def test_cheap_result_files_reproduce_on_today_s_code(name: str) -> None:
    outcome = reproduce.replay(figures.RESULTS / name, rounds=1)
    assert outcome.status in ("same", "skipped"), f"{name}: {outcome.detail}: measure it again"


def test_every_committed_chart_is_drawn_from_its_json_or_says_what_draws_it() -> None:
    """``python -m tools.figures --charts`` draws the charts of :func:`figures.charts` again;
    every other PNG under results/ and docs/ is one of :data:`figures.OTHER_CHARTS`."""
    drawn = figures.charts()
    assert set(kind for _, kind in drawn.values()) == set(figures.CHART_RENDERERS)
    docs = [p for p in (figures.ROOT / "docs").rglob("*.png") if "_build" not in p.parts]  # not the site's
    pngs = [*figures.RESULTS.rglob("*.png"), *docs]
    others = [p.relative_to(figures.ROOT).as_posix() for p in pngs if p not in drawn]
    unknown = [p for p in others if not any(fnmatch(p, pattern) for pattern in figures.OTHER_CHARTS)]
    assert not unknown, (
        f"charts with no renderer: put a JSON of their name beside them, or in OTHER_CHARTS: {unknown}"
    )
    unused = [pattern for pattern in figures.OTHER_CHARTS if not any(fnmatch(p, pattern) for p in others)]
    assert not unused, f"OTHER_CHARTS names no chart: {unused}"


def test_a_chart_of_each_kind_draws_from_its_json(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    for png in (figures.RESULTS / "ladder_hearts.png", figures.ROOT / "docs" / "_static" / "leaderboard.png"):
        figures.render_chart(png, tmp_path / png.name)
        assert (tmp_path / png.name).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_side_by_side_leaderboards_say_which_way_is_better_in_their_family() -> None:
    """Smear scores points made (higher is better), the Hearts family penalties: the text of the
    side-by-side rows follows the family of the presets, and a row's gain is read that way."""

    def board(agent: str, preset: str, diff: float) -> dict:
        cell = {
            "agent": agent,
            "preset": preset,
            "num_players": 4,
            "diff": diff,
            "ci95": 0.2,
            "verdict": "none",
            "reference": "smear" if preset.startswith("smear") else "strategy",
        }
        return {"deals": 500, "tables": 100, "seed": 0, "cells": [cell]}

    pair = (board("net", "smear_five_point", 0.2), board("pimc", "smear_five_point", 1.0))
    smear = figures.generations(pair, "net", "pimc")
    assert "higher is better" in smear and "better than `net` in 1 (smear_five_point), worse in 0" in smear
    hearts = figures.generations((board("net", "hearts", -0.2), board("pimc", "hearts", -1.0)), "net", "pimc")
    assert "lower is better" in hearts and "better than `net` in 1 (hearts), worse in 0" in hearts


def test_the_network_is_within_reach_of_the_search_by_the_allowed_points() -> None:
    """The networks' target against pimc: within 0.3 points a deal, or 2% of the preset's penalty
    total where that is larger (Spot's total is large), or better; the specialist's cell where one
    ships, the universal network's elsewhere; Smear's configurations are not Hearts-family rows."""

    def cell(agent: str, preset: str, diff: float) -> dict:
        return {
            "agent": agent,
            "preset": preset,
            "num_players": 4,
            "diff": diff,
            "ci95": 0.2,
            "verdict": "better" if diff < -0.2 else "none",
        }

    configs = [{"preset": p, "num_players": 4, "reference": "smear" if p.startswith("smear") else "strategy"}
               for p in ("hearts", "spot_hearts", "omnibus", "smear_widow")]  # fmt: skip
    board = {"deals": 500, "seed": 0, "configs": configs, "cells": [
        cell("ppo", "hearts", -1.0), cell("ppo-universal", "hearts", 5.0), cell("pimc-8", "hearts", -1.4),
        cell("ppo-universal", "spot_hearts", -10.0), cell("pimc-8", "spot_hearts", -12.0),
        cell("ppo-universal", "omnibus", -1.0), cell("pimc-8", "omnibus", -1.61),
        cell("ppo-universal", "smear_widow", 0.0), cell("pimc-8", "smear_widow", 1.0)]}  # fmt: skip
    text = figures.within_reach(board)
    rows = {line.split(" | ")[0][2:]: line for line in text.splitlines() if line.startswith("| ")}
    assert rows["hearts"].startswith("| hearts | 4 | `ppo` |")  # the specialist, not the universal network
    assert rows["hearts"].endswith("| +0.40 | 0.52 | yes |")
    spot_allowed = 0.02 * make_rules("spot_hearts").penalty_total  # 2% of a large total: above 0.3
    assert spot_allowed > 2 and rows["spot_hearts"].endswith(f"| +2.00 | {spot_allowed:.2f} | yes |")
    assert rows["omnibus"].endswith("| +0.61 | 0.52 | no |")
    assert "smear_widow" not in rows
    assert (
        "within reach of `pimc-8` (a cell at most the allowed points a deal above its, or below it) in 2 of 3"
        in (text.replace("\n", " "))
    )


def test_a_timed_series_holds_the_specialist_s_margin_only_where_its_interval_reaches_it() -> None:
    def seed(number: int, diff: float, ci95: float) -> dict:
        return {"seed": number, "decisions": 45e6, "imitation_decisions": 4e6, "decisions_per_s": 51_000,
                "opponent": "strategy", "diff": diff, "ci95": ci95, "deals": 1000}  # fmt: skip

    record = {"better": "lower", "seeds": [seed(1, -0.94, 0.31), seed(2, -0.70, 0.31), seed(3, -1.30, 0.30)]}
    specialist = {"pairs": [{"a": "ppo", "b": "strategy", "mean_diff": -1.1403, "ci95": 0.09}]}
    rows = figures.minutes_seeds(record, specialist).splitlines()
    assert "the specialist's −1.14 inside or beyond the interval" in rows[0]
    assert [row.rsplit("|", 2)[1].strip() for row in rows[2:]] == ["yes", "no", "yes"]
    # without the specialist the column asks only whether the interval excludes 0
    plain = figures.minutes_seeds(record).splitlines()
    assert [row.rsplit("|", 2)[1].strip() for row in plain[2:]] == ["yes", "yes", "yes"]


def test_a_focused_network_is_set_beside_the_leaderboard_s_cells_on_its_deals_only() -> None:
    def cell(agent: str, diff: float, ci95: float) -> dict:
        return {"agent": agent, "preset": "spot_hearts", "num_players": 4, "diff": diff, "ci95": ci95}

    board = {"deals": 500, "tables": 100, "seed": 0,
             "cells": [cell("ppo-universal", -4.5, 1.8), cell("pimc-8", -14.4, 2.0)]}  # fmt: skip

    def record(label: str, diff: float, seed: int = 0) -> dict:
        config = {"preset": "spot_hearts", "num_players": 4, "deals": 500, "tables": 100, "seed": seed}
        return {"config": config, "pairs": [{"a": label, "b": "strategy", "mean_diff": diff, "ci95": 1.9}]}

    rows = figures.focused(board, record("near", -12.0), record("far", -6.0)).splitlines()
    allowed = 0.02 * (sum(range(2, 15)) + 25)  # Spot: each heart its spot value (ace 14), the queen 25
    assert f"within {allowed:.2f}" in rows[0]
    assert [row.split("|")[4].strip() for row in rows[2:6]] == ["no", "yes", "no", ""]
    assert "beyond both intervals: near." in rows[7]
    with pytest.raises(ValueError, match="not played on the leaderboard's deals"):
        figures.focused(board, record("elsewhere", -12.0, seed=1))
