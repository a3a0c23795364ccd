"""The deal viewer (``hearts-env replay``, :mod:`evaluation.replay`) and ``--record-deals``.

A tournament that records its first deals plays exactly as one that does not, and keeps exactly
those deals (through a resume too); each recorded deal replays on the engine to a page that is
one self-contained file listing every trick and decision, for a Hearts preset with passing, one
with bids and Smear; what learned and search agents weighed is kept; a hostile agent label is
shown as text; a truncated, damaged or foreign record is refused in one line.
"""

from __future__ import annotations

import copy
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

from evaluation.duplicate import RoundPlayer, Tournament, TournamentConfig, merge_rounds
from evaluation.replay import RecordError, load_deals, play_deal, render_html, replay
from hearts_cli import main
from hearts_env.core.cards import card_symbol

HOSTILE = "<script>alert(1)</script>"


class _Page(HTMLParser):
    """The page's tags, attributes, trick rows and JSON block."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.rows: list[list[str]] = []
        self.decisions: list[str] = []
        self.data = ""
        self._cell: list[str] | None = None
        self._in: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        self.tags.append((tag, attributes))
        if tag == "tr" and attributes.get("class") == "trick-row":
            self.rows.append([])
        elif tag == "td" and self.rows and self._in == "tricks":
            self._cell = []
        elif tag == "li" and attributes.get("class") == "decision-row":
            self.decisions.append("")
            self._in = "decision"
        elif tag == "table" and attributes.get("id") == "tricks":
            self._in = "tricks"
        elif tag == "script" and attributes.get("id") == "deal-data":
            self._in = "data"

    def handle_endtag(self, tag: str) -> None:
        if tag == "td" and self._cell is not None:
            self.rows[-1].append("".join(self._cell))
            self._cell = None
        elif tag in ("table", "li", "script"):
            self._in = None

    def handle_data(self, data: str) -> None:
        if self._cell is not None:
            self._cell.append(data)
        elif self._in == "decision":
            self.decisions[-1] += data
        elif self._in == "data":
            self.data += data


def _parse(page: str) -> _Page:
    parsed = _Page()
    parsed.feed(page)
    return parsed


@pytest.fixture(scope="module")
def hearts_report() -> dict:
    """One deal of standard Hearts (a pass to the left) with a learned agent among the seats."""
    return play_deal("hearts", ["ppo", "strategy", f"random:label={HOSTILE}", "lowest"], seed=5)


def test_page_is_one_file_with_every_trick_and_decision(hearts_report: dict) -> None:
    seating = hearts_report["recorded_deals"][0]["seatings"][0]
    story = replay(hearts_report)
    page = render_html(story)
    parsed = _parse(page)
    # Self-contained: no address outside the file, no external script, style or image.
    assert not re.search(r"https?://|//[a-z]", page.replace("&#x2190;", ""))
    for tag, attributes in parsed.tags:
        assert tag != "link" and not attributes.get("src"), (tag, attributes)
    assert [t for t, _ in parsed.tags].count("script") == 2  # the data block and the inline script
    # Every step of the record, in order, and the 13 tricks with who led and who took each.
    steps = seating["steps"]
    data = json.loads(parsed.data)
    assert [[s["seat"], s["text"]] for s in data["steps"]] == [
        [seat, card_symbol(action)] for seat, action in steps
    ]
    assert len(story.tricks) == len(parsed.rows) == 13
    plays = [move for move, step in zip(steps, story.steps) if step.phase == "playing"]
    for i, (trick, row) in enumerate(zip(story.tricks, parsed.rows)):
        assert [[s, c] for s, c in trick.plays] == plays[4 * i : 4 * i + 4]
        assert row[0] == str(i + 1) and row[1].startswith(f"seat {trick.plays[0][0]} ")
        assert row[2] == " ".join(card_symbol(c) for _, c in trick.plays)
        assert row[3].startswith(f"seat {trick.taker} ")
    assert sum(sum(t.points) for t in story.tricks) == 26  # every penalty point, trick by trick
    # The passes: three cards from each seat, each named in the static list.
    passes = [s for s in story.steps if s.phase == "passing"]
    assert len(passes) == len(parsed.decisions) == 12
    assert all("passes" in line for line in parsed.decisions)
    assert [s.hands for s in story.steps][-1] == [[], [], [], []]
    assert [len(h) for h in story.start] == [13] * 4
    assert story.result[0] == ("deal points", [str(x) for x in seating["deal_points"]])


def test_learned_agent_options_are_its_probabilities(hearts_report: dict) -> None:
    story = replay(hearts_report)
    assert story.option_kinds[0] == "probability"
    mine = [s for s in story.steps if s.seat == 0]
    assert mine and all(s.options is not None for s in mine)
    for step in mine:
        assert sum(v for _, v, _ in step.options) == pytest.approx(1, abs=1e-4)
        assert step.options[0][2]  # greedy: the likeliest option is the one played
    assert all(s.options is None for s in story.steps if s.seat != 0)  # heuristics say nothing


def test_search_agent_options_are_its_values() -> None:
    report = play_deal("hearts", ["pimc:worlds=2:rollout=fast", "lowest"], seed=1, options={})
    story = replay(report)
    searched = [s for s in story.steps if s.seat == 0 and s.options]
    assert story.option_kinds[0] == "value" and searched
    for step in searched:
        assert len(step.options) > 1 and all(np.isfinite(v) for _, v, _ in step.options)


def test_hostile_label_is_text(hearts_report: dict) -> None:
    page = render_html(replay(hearts_report))
    assert HOSTILE not in page and "alert(1)</script>" not in page
    assert html_text(HOSTILE) in page  # the static part: escaped
    block = _parse(page).data
    assert "<" not in block and json.loads(block)["labels"][2] == HOSTILE  # the data: as text
    # A label written into a record by hand is no different.
    edited = copy.deepcopy(hearts_report)
    edited["agents"][1]["name"] = "</script><img src=x onerror=alert(2)>"
    page = render_html(replay(edited))
    assert "<img" not in page and "</script><img" not in page


def html_text(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


@pytest.mark.parametrize(
    ("preset", "agents", "verbs"),
    [
        ("auction_hearts", ["strategy", "random"], {"bids", "names", "plays"}),
        ("smear_partnership", ["smear", "lowest"], {"bids", "names", "discards", "plays"}),
    ],
)
def test_every_family(preset: str, agents: list[str], verbs: set[str]) -> None:
    report = play_deal(preset, agents, seed=2)
    seatings = report["recorded_deals"][0]["seatings"]
    for seating in range(len(seatings)):
        story = replay(report, 0, seating)
        data = json.loads(_parse(render_html(story)).data)
        assert {s["verb"] for s in data["steps"]} == verbs
        assert len(data["steps"]) == len(seatings[seating]["steps"])
        assert all(t.taker is not None for t in story.tricks)
        assert story.result[0][1] == [str(x) for x in seatings[seating]["deal_points"]]
    assert story.better == ("higher" if preset.startswith("smear") else "lower")


def _config(**more: object) -> TournamentConfig:
    """Two rounds of two tables; a sampling policy draws random numbers, which recording must not touch."""
    agents = ["strategy", "ppo:greedy=false", "random"]
    return TournamentConfig(preset="hearts", agents=agents, deals=4, tables=2, **more)


def test_recording_keeps_exactly_n_deals_and_changes_no_number(tmp_path: Path) -> None:
    plain = Tournament(_config(), progress=False).run()
    path = tmp_path / "t.json"
    first = Tournament(_config(record_deals=3), json_path=path, progress=False)
    first.run(max_rounds=1)  # round 0: tables 0 and 1
    assert [d["deal"] for d in json.loads(path.read_text())["recorded_deals"]] == [0, 1]
    recorded = Tournament(_config(record_deals=3), json_path=path, progress=False).run()  # resumed
    assert [d["deal"] for d in recorded["recorded_deals"]] == [0, 1, 2]
    assert "recorded_deals" not in plain and "record_deals" not in plain["config"]
    same = ("agents", "pairs", "deals")
    assert {k: recorded[k] for k in same} == {k: plain[k] for k in same}
    assert recorded["progress"]["per_deal"] == plain["progress"]["per_deal"]
    for deal in range(3):  # each recorded deal replays, in every seating
        for seating in range(len(recorded["recorded_deals"][deal]["seatings"])):
            replay(recorded, deal, seating)


def test_streams_played_apart_record_what_one_player_records() -> None:
    """Ray actors play whole streams apart (evaluation.ray_pool); their recorded deals join in table order."""
    config = TournamentConfig(preset="smear_partnership", agents=["smear", "lowest"], deals=4, tables=4,
                              streams=2, record_deals=3)  # fmt: skip
    tournament = Tournament(config, progress=False)
    whole = RoundPlayer(tournament, range(4)).play(0)["recorded"]
    parts = [RoundPlayer(tournament, tables).play(0) for tables in (range(2), range(2, 4))]
    assert [d["deal"] for d in whole] == [0, 1, 2]
    assert merge_rounds(parts)["recorded"] == whole


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("record") / "t.json"
    assert main(["tournament", "--deals", "2", "--tables", "2", "--record-deals", "2", "--json", str(path),
                 "--quiet", "--agents", "strategy,lowest"]) == 0  # fmt: skip
    return path


def _refused(capsys: pytest.CaptureFixture, argv: list[str], *words: str) -> None:
    capsys.readouterr()
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("hearts-env: error: "), err
    for word in words:
        assert word in err, err


def test_cli_writes_the_page(record_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    out = tmp_path / "deal.html"
    assert main(["replay", str(record_file), "--deal", "1", "--seating", "1", "--out", str(out)]) == 0
    assert "deal 1 · seating 1" in out.read_text(encoding="utf-8")
    assert f"wrote {out}" in capsys.readouterr().out
    out = tmp_path / "fresh.html"
    argv = ["replay", "--preset", "smear_partnership", "--agents", "smear,lowest", "--seed", "4", "--out"]
    assert main([*argv, str(out)]) == 0 and "smear_partnership · seed 4" in out.read_text(encoding="utf-8")
    _refused(capsys, ["replay", str(record_file), "--deal", "2"], "deals 0..1, got deal 2")
    _refused(capsys, ["replay", str(record_file), "--seating", "9"], "seatings 0..1, got seating 9")
    _refused(capsys, ["replay", str(record_file), "--seed", "3"], "drop --seed")
    too_many = ["tournament", "--deals", "2", "--record-deals", "3", "--json", str(tmp_path / "x.json")]
    _refused(capsys, too_many, "record_deals=3 is more than the 2 deals")


def _damaged(record_file: Path, tmp_path: Path, change: object) -> str:
    report = json.loads(record_file.read_text())
    change(report["recorded_deals"][0]["seatings"][0])  # type: ignore[operator]
    path = tmp_path / "damaged.json"
    path.write_text(json.dumps(report))
    return str(path)


def test_bad_records_are_refused(record_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    text = record_file.read_text()
    truncated = tmp_path / "truncated.json"
    truncated.write_text(text[: len(text) // 2])
    _refused(capsys, ["replay", str(truncated)], "truncated.json cannot be replayed", "not valid JSON")
    foreign = tmp_path / "foreign.json"
    foreign.write_text(json.dumps({"cells": [], "presets": ["hearts"]}))
    _refused(capsys, ["replay", str(foreign)], "not a tournament JSON")
    plain = json.loads(text)
    del plain["recorded_deals"]
    (tmp_path / "plain.json").write_text(json.dumps(plain))
    _refused(capsys, ["replay", str(tmp_path / "plain.json")], "no recorded deals", "--record-deals N")

    def illegal(seating: dict) -> None:
        seating["steps"][-1][1] = seating["steps"][0][1]  # a card already played

    def wrong_seat(seating: dict) -> None:
        seating["steps"][5][0] = (seating["steps"][5][0] + 1) % 4

    def cut(seating: dict) -> None:
        del seating["steps"][-3:], seating["options"][-3:]

    def scored(seating: dict) -> None:
        seating["deal_points"][0] += 1

    def shape(seating: dict) -> None:
        seating["steps"][2] = "QS"

    def kinds(seating: dict) -> None:
        seating["option_kinds"] = "probability"

    for change, words in [
        (illegal, ("step 63", "is not legal for seat")),
        (wrong_seat, ("step 5", "the record has seat")),
        (cut, ("ends after 61 steps, before the deal is over (truncated?)",)),
        (scored, ("the record says",)),
        (shape, ("step 2", "expected [seat, action]")),
        (kinds, ("option_kinds must be a text for each of 4 seats",)),
    ]:
        _refused(
            capsys, ["replay", _damaged(record_file, tmp_path, change)], "recorded deal 0, seating 0", *words
        )
    with pytest.raises(RecordError, match="no such file"):
        load_deals(tmp_path / "missing.json")
