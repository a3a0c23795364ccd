"""The charts read at a glance: the tournament's pair bars coloured by significance in the family's
direction (:func:`evaluation.report.pair_bars`), and the leaderboard heatmap's cells normalised by
each preset's stake, clipped, marked where significant, their text contrasting with their colour
(:func:`evaluation.leaderboard.style`). Colours are checked where they are computed, not in pixels."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evaluation import leaderboard
from evaluation.report import PAIR_COLOURS, better_of, pair_bars
from hearts_env.games import family
from hearts_env.presets import make_rules

pytest.importorskip("matplotlib")

ROOT = Path(__file__).resolve().parent.parent
GREEN, RED, GREY = PAIR_COLOURS["better"], PAIR_COLOURS["worse"], PAIR_COLOURS["no difference"]


def _report(preset: str, pairs: list[tuple[float, float]]) -> dict:
    return {
        "preset": preset,
        "num_players": 4,
        "pairs": [
            {"a": f"a{i}", "b": f"b{i}", "mean_diff": d, "ci95": ci} for i, (d, ci) in enumerate(pairs)
        ],
    }


def test_a_pair_whose_interval_crosses_0_is_grey_whichever_side_its_mean_is_on():
    for preset in ("hearts", "smear_partnership"):
        colours = [bar[3] for bar in pair_bars(_report(preset, [(-1.0, 1.5), (1.0, 1.5), (0.0, 0.0)]))]
        assert colours == [GREY, GREY, GREY], preset
    assert pair_bars(_report("hearts", [(-3.0, None)]))[0][3] == GREY  # one deal: no interval


def test_better_and_worse_follow_the_side_and_the_family_s_direction():
    hearts = [bar[3] for bar in pair_bars(_report("hearts", [(-1.0, 0.5), (1.0, 0.5)]))]
    smear = [bar[3] for bar in pair_bars(_report("smear_partnership", [(-1.0, 0.5), (1.0, 0.5)]))]
    assert hearts == [GREEN, RED]  # fewer points are better
    assert smear == [RED, GREEN]  # Smear flips it


def test_the_direction_comes_from_the_family_record_not_from_the_report():
    """The earliest reports keep no ``better``; a report's own word yields to its family's."""
    report = _report("smear_partnership", [(1.0, 0.5)])
    assert better_of(report) == family(make_rules("smear_partnership", num_players=4)).better == "higher"
    assert better_of({**report, "better": "lower"}) == "higher"
    assert better_of({"preset": "no_longer_registered", "better": "higher"}) == "higher"
    with pytest.raises(ValueError, match="preset must be a registered preset, or better"):
        better_of({"preset": "no_longer_registered", "num_players": 4})


def _board(cells: list[tuple[str, int, float, float, str]]) -> dict:
    """A leaderboard of one agent ``x`` with the given (preset, players, diff, ci95, verdict) cells."""
    configs = [
        {"preset": p, "num_players": n, "family": make_rules(p, num_players=n).game, "reference": "?"}
        for p, n, *_ in cells
    ]
    played = [
        {"agent": "x", "preset": p, "num_players": n, "deals": 100, "diff": d, "ci95": ci, "verdict": v}
        for p, n, d, ci, v in cells
    ]
    return {"agents": ["x"], "configs": configs, "cells": played}


def _shades(board: dict) -> list[leaderboard.Shade]:
    ((_, _, _, (row,)),) = leaderboard._panels(board)
    return row


def test_the_same_share_of_the_stake_is_the_same_colour_in_presets_of_other_scales():
    hearts, spot = (make_rules(p, num_players=4) for p in ("hearts", "spot_hearts"))
    h, s = family(hearts).scale_points(hearts), family(spot).scale_points(spot)
    assert h != s  # 26 and 129
    board = _board([("hearts", 4, 0.05 * h, 1.0, "worse"), ("spot_hearts", 4, 0.05 * s, 1.0, "worse"),
                    ("spot_hearts", 3, 0.05 * h, 1.0, "worse")])  # fmt: skip
    shades = _shades(board)
    assert shades[0].share == pytest.approx(-0.05) and shades[1].share == pytest.approx(-0.05)
    colours = [leaderboard.style(shade).background for shade in shades]
    assert colours[0] == pytest.approx(colours[1])
    assert colours[2] != pytest.approx(colours[0])  # Hearts' points in Spot: a smaller share


def test_the_scale_is_centred_on_0_diverges_by_direction_and_clips():
    middle = leaderboard.cell_colour(0.0)
    assert leaderboard.cell_colour(-0.0) == middle
    better, worse = leaderboard.cell_colour(0.1), leaderboard.cell_colour(-0.1)
    assert better[1] > better[0] and worse[0] > worse[1]  # green one way, red the other
    assert leaderboard.cell_colour(leaderboard.CLIP) == leaderboard.cell_colour(3.0)  # random saturates
    assert leaderboard.cell_colour(-leaderboard.CLIP) == leaderboard.cell_colour(-3.0)
    # Within the clip the strong agents' cells differ visibly (not squeezed by random's margins).
    near = [leaderboard.cell_colour(share) for share in (0.02, 0.06, 0.12)]
    assert all(max(abs(x - y) for x, y in zip(a, b)) > 0.08 for a, b in zip(near, near[1:]))
    assert leaderboard.cell_colour(float("nan")) == leaderboard.BLANK_COLOUR


def test_a_smear_margin_is_green_when_positive_and_a_hearts_one_when_negative():
    board = _board([("hearts", 4, -2.0, 0.5, "better"), ("smear_partnership", 4, 2.0, 0.5, "better")])
    assert [shade.share > 0 for shade in _shades(board)] == [True, True]


def test_cells_whose_interval_excludes_0_are_marked_and_only_those():
    board = _board([("hearts", 4, -2.0, 0.5, "better"), ("hearts", 3, 2.0, 0.5, "worse"),
                    ("black_maria", 3, 0.2, 0.5, "no difference")])  # fmt: skip
    assert [leaderboard.style(shade).bold for shade in _shades(board)] == [True, True, False]
    committed = json.loads((ROOT / "docs" / "leaderboard.json").read_text())
    ((*_, cells),) = leaderboard._panels(committed)
    marked = sum(shade.significant for row in cells for shade in row)
    assert marked == sum(c.get("verdict") in ("better", "worse") for c in committed["cells"])


@pytest.mark.parametrize("name", ["docs/leaderboard.json", "results/universal/all_counts.json"])
def test_every_cell_s_text_contrasts_with_its_background(name: str):
    board = json.loads((ROOT / name).read_text())
    styles = [
        leaderboard.style(shade) for *_, cells in leaderboard._panels(board) for row in cells for shade in row
    ]
    assert {s.colour for s in styles} == {leaderboard.BLACK, leaderboard.WHITE}  # both are needed
    worst = min(leaderboard.contrast(s.colour, s.background) for s in styles)
    assert worst >= 4.5
    # Across the whole scale, too: the text colour is picked by luminance, never by a fixed colour.
    for step in range(-20, 21):
        background = leaderboard.cell_colour(step / 100)
        assert leaderboard.contrast(leaderboard.text_colour(background), background) >= 4.5


def test_the_colour_bar_says_what_the_colours_mean_and_each_family_s_direction():
    board = _board([("hearts", 4, -2.0, 0.5, "better"), ("smear_partnership", 4, 2.0, 0.5, "better")])
    label = leaderboard.colour_bar_label(board)
    assert "share of the points at stake" in label and "clipped at ±15%" in label
    assert "Hearts: lower is better" in label and "Smear: higher is better" in label
    assert "Smear" not in leaderboard.colour_bar_label(_board([("hearts", 4, -2.0, 0.5, "better")]))
