"""The deal viewer: one recorded deal replayed on the engine and drawn as a self-contained HTML page.

A tournament run with ``record_deals=N`` (``hearts-env tournament --record-deals N``) keeps the
first N deals' plays in its JSON (``recorded_deals``, :mod:`evaluation.duplicate`): the cards as
dealt, the dealer and the pass, and for every seating the games' totals before the deal, each
decision's seat and action, the options the agent weighed (a learned agent's probabilities, a
search agent's values: :meth:`agents.Agent.last_options`) and the deal points.

:func:`load_deals` reads such a file; :func:`replay` plays one seating of one deal again on a
:class:`~hearts_env.table.Table` (every action must be legal where the record puts it, and the
deal must end where it ends, with its deal points: a damaged, foreign or truncated record is one
``ValueError`` naming what is wrong) and returns a :class:`DealStory`: the hands after every step,
the tricks with who led and who took them, the points; :func:`render_html` draws it, and
:func:`play_deal` plays a fresh deal from a seed and agents and records it.

The page is one file with its script inline and no address outside it; the deal's data sits in
a JSON block whose ``<``, ``>`` and ``&`` are escaped and is shown through ``textContent`` only, and
every text of the static part is HTML-escaped: an agent label such as ``<script>`` is shown as
text. ``hearts-env replay`` is the command (docs/replay.md).
"""

from __future__ import annotations

import html
import json
import math
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from evaluation.record import read_json
from hearts_env.core.cards import SUIT_SYMBOLS, card_symbol, suit_of
from hearts_env.core.rules import PASS_DIRECTIONS, Rules
from hearts_env.games import family
from hearts_env.presets import make_rules
from hearts_env.table import Table

VERBS = {
    "passing": "passes",
    "playing": "plays",
    "discard": "discards",
    "bid": "bids",
    "declare": "declares",
    "name_suit": "names",
    "moon_choice": "chooses",
}
"""What a seat does in each phase of a deal, as the page says it."""

"""The observation piece that counts each seat's points taken in the deal so far, its scale
and what the page calls them: the Hearts family's card points, Smear's "game" points."""


@dataclass
class Step:
    """One decision of the deal, as played."""

    seat: int
    phase: str
    action: int
    text: str
    """The action as the page shows it (``Q♠``, ``bid 3``, ``♥``)."""
    options: list[tuple[str, float, bool]] | None
    """What the agent weighed: (action text, value, chosen), best first; None: it did not say."""
    hands: list[list[int]]
    """Every seat's cards after the step (a card held twice, two decks, appears twice)."""
    trick: list[tuple[int, int]]
    """The cards on the table after the step: (seat, card), in the order played."""
    took: int | None = None
    """The trick this step completed (an index into :attr:`DealStory.tricks`), if any."""


@dataclass
class Trick:
    """One finished trick."""

    plays: list[tuple[int, int]]
    """(seat, card) in the order played: the first led."""
    taker: int | None
    """The seat that took it (None: cancelled, Cancellation Hearts)."""
    points: list[int] | None
    """Each seat's points taken with it (None where the rules count none per trick)."""


@dataclass
class DealStory:
    """One seating of one recorded deal, replayed: everything the page shows."""

    title: str
    preset: str
    deal: int
    seating: int
    seatings: int
    labels: list[str]
    """The agent at each seat, by its label."""
    specs: list[str]
    option_kinds: list[str]
    """Per seat: ``"probability"``, ``"value"`` or ``""`` (:attr:`agents.Agent.options_kind`)."""
    dealer: int
    pass_direction: str
    better: str
    """``"lower"`` (the Hearts family) or ``"higher"`` (Smear): which deal points are better."""
    points_name: str
    start: list[list[int]]
    """Every seat's hand as dealt."""
    steps: list[Step] = field(default_factory=list)
    tricks: list[Trick] = field(default_factory=list)
    result: list[tuple[str, list[str]]] = field(default_factory=list)
    """The deal's end, row by row: (what, one text per seat or a single text)."""


class RecordError(ValueError):
    """A record the viewer cannot replay; the message names the file or deal and what is wrong."""


# ---------------------------------------------------------------------- reading
def load_deals(path: str | Path) -> dict[str, Any]:
    """The tournament report at ``path`` with its ``recorded_deals``; :class:`RecordError`
    (one line naming the file) when it is not one: unreadable, not JSON, truncated, written by
    something else, or a tournament run without ``--record-deals``."""
    path = Path(path)

    def refuse(why: str) -> RecordError:
        return RecordError(f"{path} cannot be replayed: {why}")

    report = read_json(path, refuse)
    if not isinstance(report, dict) or not isinstance(report.get("config"), dict) or "agents" not in report:
        raise refuse("it is not a tournament JSON (no 'config' and 'agents' entries)")
    deals = report.get("recorded_deals")
    if deals is None:
        raise refuse("it holds no recorded deals (run the tournament with --record-deals N)")
    if not isinstance(deals, list) or not deals:
        raise refuse(f"its recorded_deals must be a non-empty list, got {str(deals)[:80]!r}")
    agents = report["agents"]
    if not isinstance(agents, list) or not all(isinstance(a, dict) and "name" in a for a in agents):
        raise refuse("its 'agents' entry is not a list of agent rows with names")
    return report


def record_rules(report: dict[str, Any], where: str) -> Rules:
    """The rules a recorded tournament played (its ``config``: preset, players, options)."""
    config = report["config"]
    try:
        return make_rules(
            config["preset"], num_players=config.get("num_players"), **dict(config.get("options") or {})
        )
    except (KeyError, TypeError, ValueError) as error:
        raise RecordError(f"{where}: its config names no rules this version plays ({error})") from None


# ---------------------------------------------------------------------- replaying
def replay(report: dict[str, Any], deal: int = 0, seating: int = 0, where: str = "the record") -> DealStory:
    """Seating ``seating`` of the ``deal``-th recorded deal of ``report`` (:func:`load_deals`),
    played again step by step; :class:`RecordError` naming the deal, the step and what is wrong
    where the record does not replay (``where``: the record's name in messages)."""
    deals = report["recorded_deals"]
    if not isinstance(deal, int) or not 0 <= deal < len(deals):
        raise RecordError(f"{where} records deals 0..{len(deals) - 1}, got deal {deal}")
    rules = record_rules(report, where)
    p = rules.num_players
    entry = deals[deal]
    at = f"{where}, recorded deal {deal}"
    if not isinstance(entry, dict) or not isinstance(entry.get("seatings"), list) or not entry["seatings"]:
        raise RecordError(f"{at}: expected a deal with its 'seatings', got {str(entry)[:80]!r}")
    seatings = entry["seatings"]
    if not isinstance(seating, int) or not 0 <= seating < len(seatings):
        raise RecordError(f"{at} was played in seatings 0..{len(seatings) - 1}, got seating {seating}")
    played = seatings[seating]
    at = f"{at}, seating {seating}"
    keys = ("agents", "start", "steps", "options", "deal_points")
    if not isinstance(played, dict) or not all(k in played for k in keys):
        raise RecordError(f"{at}: expected the entries {list(keys)}, got {str(played)[:80]!r}")
    rows = report["agents"]
    seats = played["agents"]
    if not isinstance(seats, list) or len(seats) != p or not all(_index(a, len(rows)) for a in seats):
        raise RecordError(f"{at}: 'agents' must name one of the {len(rows)} agents for each of {p} seats")
    steps, options = played["steps"], played["options"]
    if not isinstance(steps, list) or not isinstance(options, list) or len(options) != len(steps):
        raise RecordError(f"{at}: 'steps' and 'options' must be lists of the same length")
    table = _deal(rules, entry, played["start"], at)
    lay = table.observer.layout
    counted, scale, points_name = family(rules).points_piece or (None, 1.0, "points")
    names = rules.action_names
    story = DealStory(
        title=f"{rules.preset} · {where} · deal {deal} · seating {seating}",
        preset=rules.preset,
        deal=int(entry.get("deal", deal)),
        seating=seating,
        seatings=len(seatings),
        labels=[str(rows[a]["name"]) for a in seats],
        specs=[str(rows[a].get("spec", rows[a]["name"])) for a in seats],
        option_kinds=_kinds(played.get("option_kinds", [""] * p), p, at),
        dealer=int(entry["dealer"]),
        pass_direction=str(entry["pass_direction"]),
        better=family(rules).better,
        points_name=points_name,
        start=_hands(table, lay, p),
    )
    trick: list[tuple[int, int]] = []
    taken = _taken(table, lay, counted, scale, p)
    for i, (move, weighed) in enumerate(zip(steps, options)):
        here = f"{at}, step {i}"
        if table.deal_over[0]:
            raise RecordError(
                f"{here}: the deal is already over, yet the record goes on ({len(steps)} steps)"
            )
        if not (isinstance(move, list) and len(move) == 2 and all(_index(x, len(names)) for x in move)):
            raise RecordError(
                f"{here}: expected [seat, action] with an action 0..{len(names) - 1}, got {move!r}"
            )
        seat, action = move
        if seat != int(table.current_player[0]):
            raise RecordError(
                f"{here}: the record has seat {seat} act, the deal asks seat {table.current_player[0]}"
            )
        if not table.action_mask()[0, action]:
            raise RecordError(
                f"{here}: {names[action]} is not legal for seat {seat} there (a damaged record?)"
            )
        phase = _phase(table, lay, rules, seat)
        tricks_before = int(table.trick_number[0])
        table.step(np.array([action]))
        if phase == "playing" and action < rules.card_slots:
            trick.append((seat, action))
        took = None
        if int(table.trick_number[0]) > tricks_before:
            now = _taken(table, lay, counted, scale, p)
            won = None if table.last_cancelled[0] else int(table.last_winner[0])
            points = None if now is None or taken is None else [a - b for a, b in zip(now, taken)]
            story.tricks.append(Trick(plays=trick, taker=won, points=points))
            took, trick, taken = len(story.tricks) - 1, [], now
        story.steps.append(
            Step(
                seat=seat,
                phase=phase,
                action=action,
                text=action_text(rules, action),
                options=_options(rules, weighed, action, here),
                hands=_hands(table, lay, p),
                trick=list(trick),
                took=took,
            )
        )
    if not table.deal_over[0]:
        raise RecordError(
            f"{at}: the record ends after {len(steps)} steps, before the deal is over (truncated?)"
        )
    points = table.deal_points[0].tolist()
    if points != played["deal_points"]:
        raise RecordError(
            f"{at}: replayed, the deal scores {points}, the record says {played['deal_points']}"
        )
    story.result = _result(table, story.labels)
    return story


def _kinds(kinds: Any, p: int, at: str) -> list[str]:
    """Each seat's :attr:`agents.Agent.options_kind` as recorded."""
    if not isinstance(kinds, list) or len(kinds) != p or not all(isinstance(k, str) for k in kinds):
        raise RecordError(f"{at}: option_kinds must be a text for each of {p} seats, got {str(kinds)[:60]!r}")
    return kinds


def _index(value: Any, size: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < size


def _deal(rules: Rules, entry: dict[str, Any], start: Any, at: str) -> Table:
    """A table of one game at the recorded deal's first decision."""
    p = rules.num_players
    if not isinstance(start, dict) or not {"totals", "deal_index", "game_over"} <= set(start):
        raise RecordError(f"{at}: 'start' must hold the game's totals, deal_index and game_over")
    table = Table(rules, 1)
    try:
        dealer, direction = entry["dealer"], entry["pass_direction"]
        if not _index(dealer, p):
            raise ValueError(f"dealer must be a seat 0..{p - 1}, got {dealer!r}")
        if direction not in PASS_DIRECTIONS:
            raise ValueError(f"pass_direction must be one of {', '.join(PASS_DIRECTIONS)}, got {direction!r}")
        table.restore_games(
            np.array([start["totals"]], np.int64),
            np.array([start["deal_index"]], np.int64),
            np.array([start["game_over"]], bool),
        )
        stock = entry.get("stock")
        table.deal_masks(
            np.array([entry["hands"]], np.uint64),
            np.array([entry["kitty"]], np.uint64),
            dealer=dealer,
            pass_direction=PASS_DIRECTIONS.index(direction),
            new_game=bool(entry.get("new_game")),
            stock=None if stock is None else np.array([stock], np.int64),
        )
    except (KeyError, TypeError, ValueError, OverflowError) as error:
        what = f"no {error}" if isinstance(error, KeyError) else " ".join(str(error).split())
        raise RecordError(f"{at}: its deal cannot be dealt again: {what}") from None
    return table


def _phase(table: Table, lay: Any, rules: Rules, seat: int) -> str:
    """The phase of the deal, read from the acting seat's observation."""
    return rules.phases[int(np.argmax(lay.view(table.observe(np.array([seat])), "phase")[0]))]


def _hands(table: Table, lay: Any, p: int) -> list[list[int]]:
    """Every seat's cards, from its own observation (a count per card: two decks hold two)."""
    out = []
    for seat in range(p):
        held = np.rint(lay.view(table.observe(np.array([seat])), "hand")[0]).astype(int)
        out.append([int(c) for c in np.repeat(np.arange(len(held)), np.maximum(held, 0))])
    return out


def _taken(table: Table, lay: Any, counted: str | None, scale: float, p: int) -> list[int] | None:
    """Each seat's points taken in the deal so far (seat 0's view: relative seats are absolute)."""
    if counted is None:
        return None
    seen = lay.view(table.observe(np.zeros(1, np.int64)), counted)[0]
    return [int(round(float(seen[q]) / scale)) for q in range(p)]


def action_text(rules: Rules, action: int) -> str:
    """An action as the page shows it: a card (``Q♠``), a bid (``bid 3``), a suit (``♥``)."""
    if action < rules.card_slots:
        return card_symbol(action)
    name = rules.action_names[action]
    kind, _, value = name.partition(":")
    if kind == "suit" and value in "CDHS":
        return SUIT_SYMBOLS["CDHS".index(value)]
    return f"{kind} {value}" if value else name.replace("_", " ")


def _options(rules: Rules, weighed: Any, chosen: int, here: str) -> list[tuple[str, float, bool]] | None:
    if weighed is None:
        return None
    ok = isinstance(weighed, list) and all(
        isinstance(o, list) and len(o) == 2 and _index(o[0], len(rules.action_names))
        and isinstance(o[1], (int, float)) and not isinstance(o[1], bool) and math.isfinite(o[1])
        for o in weighed
    )  # fmt: skip
    if not ok:
        raise RecordError(
            f"{here}: options must be a list of [action, finite value], got {str(weighed)[:80]!r}"
        )
    ranked = sorted(weighed, key=lambda o: -o[1])
    return [(action_text(rules, a), float(v), a == chosen) for a, v in ranked]


def _result(table: Table, labels: list[str]) -> list[tuple[str, list[str]]]:
    """The deal's end as the engine reports it: points and totals per seat, then the family's
    own facts (who shot the moon, the pitcher and his bid …)."""
    info = table.game_info(np.zeros(1, np.int64))
    points = np.asarray(info["deal_points"])[0]
    rows: list[tuple[str, list[str]]] = []
    for key, value in info.items():
        value = np.asarray(value)[0]
        # What says nothing here: no cancellation, no game end, no chips, team points that are one's own.
        if (value.dtype.kind in "bf" and not value.any()) or (
            key == "team_points" and np.array_equal(value, points)
        ):
            continue
        if value.ndim == 1 and len(value) != len(labels):  # not one per seat (Smear's categories)
            rows.append((key.replace("_", " "), [" ".join(_number(v) for v in value)]))
        elif value.ndim == 1:
            rows.append((key.replace("_", " "), [_number(v) for v in value]))
        elif key in ("moon_shooter", "pitcher", "winner") or key.endswith("seat"):
            rows.append((key.replace("_", " "), [labels[int(value)] if 0 <= value < len(labels) else "none"]))
        else:
            rows.append((key.replace("_", " "), [_number(value)]))
    return rows


def _number(value: Any) -> str:
    value = value.item() if hasattr(value, "item") else value
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


# ---------------------------------------------------------------------- playing a fresh deal
def play_deal(
    preset: str,
    agents: list[str],
    seed: int = 0,
    num_players: int | None = None,
    options: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A one-deal tournament (every seating of the deal the ``seed`` deals) played with its plays
    recorded: a report for :func:`replay` (seating 0 seats ``agents`` in the order given)."""
    from evaluation.duplicate import Tournament, TournamentConfig  # noqa: PLC0415  (duplicate imports agents)

    config = TournamentConfig(
        preset=preset, num_players=num_players, options=dict(options or {}), agents=list(agents),
        deals=1, tables=1, seed=seed, record_deals=1,
    )  # fmt: skip
    return Tournament(config, progress=False).run()


# ---------------------------------------------------------------------- the page
def page_data(story: DealStory) -> dict[str, Any]:
    """What the page's script reads (the JSON block): the story with cards as their symbols."""

    def cards(hand: list[int]) -> list[list[str]]:
        by_suit: list[list[str]] = [[] for _ in range(5)]  # clubs, diamonds, hearts, spades, jokers
        for c in sorted(hand, key=lambda c: (suit_of(c) if c < 52 else 4, c)):
            by_suit[suit_of(c) if c < 52 else 4].append(card_symbol(c))
        return by_suit

    return {
        "title": story.title,
        "labels": story.labels,
        "kinds": story.option_kinds,
        "points_name": story.points_name,
        "start": [cards(h) for h in story.start],
        "tricks": [
            {"plays": [[s, card_symbol(c)] for s, c in t.plays], "taker": t.taker, "points": t.points}
            for t in story.tricks
        ],
        "steps": [
            {
                "seat": s.seat,
                "verb": VERBS.get(s.phase, s.phase),
                "text": s.text,
                "options": s.options,
                "hands": [cards(h) for h in s.hands],
                "trick": [[seat, card_symbol(c)] for seat, c in s.trick],
                "took": s.took,
            }
            for s in story.steps
        ],
    }


def _json_block(value: Any) -> str:
    """JSON safe inside a ``<script>`` element: no ``<``, ``>`` or ``&`` (a label ``</script>``
    cannot end the block)."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def render_html(story: DealStory) -> str:
    """The page of ``story``: one HTML file, script and style inline, no address outside it."""
    e = html.escape
    seats = "".join(
        f"<li>seat {s}: <b>{e(label)}</b>"
        + (f" <span class=spec>{e(spec)}</span>" if spec != label else "")
        + (f" <span class=kind>({e(kind)} of its options shown)</span>" if kind else "")
        + "</li>"
        for s, (label, spec, kind) in enumerate(zip(story.labels, story.specs, story.option_kinds))
    )

    def seat_name(seat: int | None) -> str:
        return "nobody (cancelled)" if seat is None else f"seat {seat} ({story.labels[seat]})"

    trick_rows = "".join(
        f"<tr class=trick-row><td>{i + 1}</td><td>{e(seat_name(t.plays[0][0]))}</td>"
        f"<td>{e(' '.join(card_symbol(c) for _, c in t.plays))}</td><td>{e(seat_name(t.taker))}</td>"
        f"<td>{'' if t.points is None else e(' '.join(str(x) for x in t.points))}</td></tr>"
        for i, t in enumerate(story.tricks)
    )
    decisions = "".join(
        f"<li class=decision-row>seat {s.seat} ({e(story.labels[s.seat])}) {e(VERBS.get(s.phase, s.phase))} "
        f"{e(s.text)}</li>"
        for s in story.steps
        if s.phase != "playing"
    )
    p = len(story.labels)
    result = "".join(
        f"<tr><th>{e(what)}</th>"
        + (
            "".join(f"<td>{e(v)}</td>" for v in values)
            if len(values) == p
            else f"<td colspan={p}>{e(values[0])}</td>"
        )
        + "</tr>"
        for what, values in story.result
    )
    heads = "".join(f"<th>seat {s}<br>{e(label)}</th>" for s, label in enumerate(story.labels))
    better = "lower is better" if story.better == "lower" else "higher is better"
    return _PAGE.format(
        title=e(f"hearts-env replay: {story.title}"),
        heading=e(story.title),
        facts=e(
            f"dealer: seat {story.dealer} · pass: {story.pass_direction} · {len(story.steps)} decisions, "
            f"{len(story.tricks)} tricks · deal points: {better}"
        ),
        seats=seats,
        steps=len(story.steps),
        trick_rows=trick_rows,
        points_name=e(story.points_name),
        decisions=decisions or "<li>none: every decision was a card played to a trick</li>",
        heads=heads,
        result=result,
        data=_json_block(page_data(story)),
        style=_STYLE,
        script=_SCRIPT,
    )


_STYLE = """
body{font-family:system-ui,sans-serif;margin:1.5em;background:#f6f7f4;color:#1d232a}
h1{font-size:1.3em;margin:0 0 .3em}
.facts{color:#444;margin:.2em 0 .8em}
.spec,.kind{color:#666;font-size:.85em}
#controls{margin:.8em 0;display:flex;gap:.4em;align-items:center;flex-wrap:wrap}
button{font-size:1em;padding:.3em .8em;border:1px solid #889;border-radius:4px;background:#fff;cursor:pointer}
button:hover{background:#e8eef8}
#board{display:grid;grid-template-columns:repeat(auto-fit,minmax(15em,1fr));gap:.8em}
.seat{background:#fff;border:2px solid #cfd6cc;border-radius:8px;padding:.6em}
.seat.acting{border-color:#2a6fdb;box-shadow:0 0 0 2px #2a6fdb33}
.seat h2{font-size:1em;margin:0 0 .3em}
.suit{font-size:1.1em;letter-spacing:.05em;min-height:1.3em}
.red{color:#c0182b}
.played{margin-top:.3em;font-weight:bold;min-height:1.3em}
.taken{color:#555;font-size:.9em}
#now{margin:.8em 0;padding:.6em;background:#fff;border-radius:8px;border:1px solid #cfd6cc}
#now .what{font-size:1.15em;font-weight:bold}
table{border-collapse:collapse;margin:.4em 0}
td,th{border:1px solid #cfd6cc;padding:.2em .5em;text-align:left}
.bar{display:inline-block;height:.8em;background:#2a6fdb;vertical-align:middle}
tr.chosen td{font-weight:bold;background:#eef4ff}
#log li{cursor:pointer}
#log li.current{background:#ffe9a8}
#all{display:none}
#all.shown{display:block}
"""

_SCRIPT = """
(function () {
  const data = JSON.parse(document.getElementById('deal-data').textContent);
  const steps = data.steps, n = steps.length;
  let at = 0;  // steps played: 0 is the deal as dealt
  const el = (tag, text, cls) => {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = String(text);
    if (cls) node.className = cls;
    return node;
  };
  const suits = ['\u2663', '\u2666', '\u2665', '\u2660', ''];
  const finished = () => steps.slice(0, at).filter(s => s.took !== null).map(s => data.tricks[s.took]);
  function board() {
    const hands = at === 0 ? data.start : steps[at - 1].hands;
    const onTable = at === 0 ? [] : steps[at - 1].trick;
    const next = at < n ? steps[at].seat : -1;
    const root = document.getElementById('board');
    root.replaceChildren();
    hands.forEach((bySuit, seat) => {
      const box = el('div', null, 'seat' + (seat === next ? ' acting' : ''));
      box.appendChild(el('h2', 'seat ' + seat + ': ' + data.labels[seat]));
      bySuit.forEach((cards, s) => {
        if (s === 4 && !cards.length) return;
        box.appendChild(el('div', (suits[s] ? suits[s] + ' ' : '') + (cards.join(' ') || '\u2014'),
                           'suit' + (s === 1 || s === 2 ? ' red' : '')));
      });
      const mine = onTable.filter(p => p[0] === seat).map(p => p[1]);
      box.appendChild(el('div', mine.length ? 'on the table: ' + mine.join(' ') : '', 'played'));
      const done = finished();
      const won = done.filter(t => t.taker === seat).length;
      let taken = won + (won === 1 ? ' trick' : ' tricks');
      if (done.length && done[0].points) {
        taken += ', ' + done.reduce((sum, t) => sum + t.points[seat], 0) + ' ' + data.points_name;
      }
      box.appendChild(el('div', 'taken: ' + taken, 'taken'));
      root.appendChild(box);
    });
  }
  function now() {
    const root = document.getElementById('now');
    root.replaceChildren();
    if (at === 0) {
      root.appendChild(el('div', 'The deal as dealt. ' + (n ? 'Next: seat ' + steps[0].seat + ' (' +
                          data.labels[steps[0].seat] + ').' : ''), 'what'));
      return;
    }
    const s = steps[at - 1];
    root.appendChild(el('div', 'Step ' + at + ': seat ' + s.seat + ' (' + data.labels[s.seat] + ') ' +
                        s.verb + ' ' + s.text, 'what'));
    const done = finished();
    if (done.length) {
      const number = done.length, t = done[number - 1];
      const taker = t.taker === null ? 'nobody (cancelled)'
                                     : 'seat ' + t.taker + ' (' + data.labels[t.taker] + ')';
      let line = (s.took !== null ? 'Trick ' : 'Last trick, ') + number + ': led by seat ' +
                 t.plays[0][0] + ', ' + t.plays.map(p => p[1]).join(' ') + '; taken by ' + taker;
      if (t.points) line += '; ' + data.points_name + ': ' + t.points.join(' ');
      root.appendChild(el('div', line));
    }
    if (s.options) {
      const kind = data.kinds[s.seat] || 'value';
      root.appendChild(el('div', 'What ' + data.labels[s.seat] + ' made of its options (' + kind +
                          (kind === 'value' ? ', higher is better' : '') + '):'));
      const table = el('table');
      const top = Math.max(...s.options.map(o => Math.abs(o[1])), 1e-9);
      s.options.forEach(o => {
        const row = el('tr', null, o[2] ? 'chosen' : '');
        row.appendChild(el('td', o[0] + (o[2] ? ' \u2190 played' : '')));
        row.appendChild(el('td', kind === 'probability' ? (100 * o[1]).toFixed(1) + '%' : o[1].toFixed(2)));
        const cell = el('td');
        const bar = el('span', null, 'bar');
        bar.style.width = (8 * Math.abs(o[1]) / top).toFixed(2) + 'em';
        cell.appendChild(bar);
        row.appendChild(cell);
        table.appendChild(row);
      });
      root.appendChild(table);
    }
  }
  function log() {
    const root = document.getElementById('log');
    if (!root.childElementCount) {
      steps.forEach((s, i) => {
        const item = el('li', 'seat ' + s.seat + ' ' + s.verb + ' ' + s.text +
                        (s.took !== null ? ' \u2014 trick ' + (s.took + 1) + ' taken' : ''));
        item.addEventListener('click', () => go(i + 1));
        root.appendChild(item);
      });
    }
    Array.from(root.children).forEach((item, i) => item.classList.toggle('current', i === at - 1));
  }
  function go(to) {
    at = Math.max(0, Math.min(n, to));
    document.getElementById('position').textContent = 'step ' + at + ' of ' + n;
    try { history.replaceState(null, '', '#' + at); } catch (error) { /* a page without history */ }
    board(); now(); log();
  }
  document.getElementById('first').addEventListener('click', () => go(0));
  document.getElementById('back').addEventListener('click', () => go(at - 1));
  document.getElementById('forward').addEventListener('click', () => go(at + 1));
  document.getElementById('last').addEventListener('click', () => go(n));
  document.getElementById('toggle').addEventListener('click', () => {
    const all = document.getElementById('all');
    all.classList.toggle('shown');
    document.getElementById('toggle').textContent = all.classList.contains('shown') ? 'hide all' : 'show all';
  });
  document.addEventListener('keydown', event => {
    const moves = {ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: n};
    if (event.key in moves) { go(moves[event.key]); event.preventDefault(); }
  });
  go(parseInt(location.hash.slice(1), 10) || 0);  // deal.html#20: the deal after 20 steps
})();
"""

_PAGE = """<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>{style}</style>
</head>
<body>
<h1>{heading}</h1>
<p class="facts">{facts}</p>
<ul class="seats">{seats}</ul>
<div id="controls">
<button id="first" title="the deal as dealt (Home)">&#x00AB; start</button>
<button id="back" title="one step back (&#x2190;)">&#x25C0; back</button>
<button id="forward" title="one step on (&#x2192;)">on &#x25B6;</button>
<button id="last" title="the deal's end (End)">end &#x00BB;</button>
<span id="position">step 0 of {steps}</span>
<button id="toggle">show all</button>
<noscript>(the step buttons need JavaScript; everything is listed below)
<style>#all{{display:block}}</style></noscript>
</div>
<div id="now"></div>
<div id="board"></div>
<div id="all">
<h2>Tricks</h2>
<table id="tricks"><tr><th>#</th><th>led by</th><th>cards, in order</th><th>taken by</th>
<th>{points_name} taken, per seat</th></tr>{trick_rows}</table>
<h2>Other decisions</h2>
<ul id="decisions">{decisions}</ul>
</div>
<h2>The deal's end</h2>
<table id="result"><tr><th></th>{heads}</tr>{result}</table>
<h2>Every step</h2>
<ol id="log"></ol>
<script type="application/json" id="deal-data">{data}</script>
<script>{script}</script>
</body>
</html>
"""
