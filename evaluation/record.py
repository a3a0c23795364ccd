"""The resumable record of a tournament: the JSON file's ``progress`` entry holds everything a
later run needs to go on (rounds done, per-deal points, counters, the tables' game state).

:class:`RecordShape` says what a tournament's record holds; :func:`empty_record` builds one,
:func:`load_record` reads a saved file back (refusing, with one ``ValueError`` naming the file
and what is wrong, a file that is not such a record or holds another tournament), and
:func:`save_record` rewrites the file in one step, so a run stopped at any moment leaves it whole.
"""

from __future__ import annotations

import json
import math
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from hearts_env.core.rules import Rules
from hearts_env.files import write_atomic

COUNTERS = ("seat_deals", "games", "wins", "moons_shot", "moons_allowed", "illegal")
"""Per-agent counters of the record (``wins`` is fractional: shared between tied winners)."""
TEAM_COUNTERS = ("games", "wins")
"""Per-team counters (fixed teams)."""
SLAM_COUNTERS = ("bids", "paired", "paired_points")
"""Per-agent counters of Partnership C's slam pairs (``paired_points``: their sum)."""


@dataclass(frozen=True)
class RecordShape:
    """What a tournament's record holds: enough to build an empty one and to check a saved one."""

    names: list[str]
    """The agents (unique specs), the keys of the per-agent counters."""
    seats_held: list[int]
    """Per agent: the seats it holds at one table over every rotation (its seat-deals per deal)."""
    team_names: list[str]
    """The fixed teams by name (empty: no teams)."""
    rounds: int
    """Rounds the tournament plays."""
    tables: int
    """Duplicate tables (rows of ``per_deal`` per round)."""
    batch: int
    """Games of the table state (tables x rotations)."""
    num_players: int
    """Seats per game."""
    slam: bool
    """Whether Partnership C's slam pairs are counted."""
    bid_levels: frozenset[str] | None
    """The bid levels contracts are counted by (None: the deals have no contracts)."""


def empty_record(shape: RecordShape) -> dict[str, Any]:
    """The record of a tournament before its first round."""
    record: dict[str, Any] = {
        "rounds_done": 0,
        "elapsed_s": 0.0,
        "per_deal": [],
        "counters": {name: {c: 0 for c in COUNTERS} for name in shape.names},
        "table_state": None,
    }
    # Only tournaments with teams have these entries: older records load unchanged.
    if shape.team_names:
        record["team_per_deal"] = []
        record["team_counters"] = [{c: 0 for c in TEAM_COUNTERS} for _ in shape.team_names]
    if shape.slam:
        record["slam_counters"] = {name: {c: 0 for c in SLAM_COUNTERS} for name in shape.names}
    if shape.bid_levels is not None:  # {agent: {"pitched": {level: n}, "made": {level: n}}}
        record["smear_counters"] = {name: {"pitched": {}, "made": {}} for name in shape.names}
    return record


def read_json(path: Path, refuse: Callable[[str], Exception]) -> Any:
    """The JSON value in the file at ``path``; ``refuse(why)`` is raised when there is no such
    file, or it is not text, is empty or is not valid JSON (truncated or edited)."""
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise refuse("no such file") from None
    except UnicodeDecodeError:
        raise refuse("it is not text") from None
    if not text.strip():
        raise refuse("it is empty")
    try:
        return json.loads(text)
    except json.JSONDecodeError as error:
        raise refuse(f"it is not valid JSON (truncated or edited? {error})") from None


def load_record(
    path: Path,
    shape: RecordShape,
    config: dict[str, Any],
    rules: Rules,
    weights: dict[str, str] | None = None,
) -> tuple[dict[str, Any], list[Any]] | None:
    """The progress and the runs' provenance saved at ``path`` (None: no file there), checked
    to be this tournament's (``config``: :meth:`TournamentConfig.record`; ``rules``: the rules,
    which :meth:`Rules.matches` compares with the saved description of any version; ``weights``:
    the digests of the files its trained agents play) and consistent with ``shape``; ``ValueError``
    naming the file otherwise. A record written before records kept the digests resumes with a
    warning (what its agents played cannot be checked)."""
    if not path.exists():
        return None

    def refuse(why: str) -> ValueError:
        return ValueError(
            f"{path} is not a usable tournament record: {why}; delete it (or choose another --json) "
            "to start this tournament afresh"
        )

    saved = read_json(path, refuse)
    if not isinstance(saved, dict) or "config" not in saved or "progress" not in saved:
        raise refuse("it has no 'config' and 'progress' entries (not written by a tournament)")
    if not same_tournament(saved, config, rules):
        raise ValueError(
            f"{path} holds a different tournament ({saved['config']}); "
            "delete it or choose another --json to start this one"
        )
    changed = weights_changed(saved.get("weights"), weights or {})
    if changed:
        raise ValueError(
            f"{path} was played with other weights behind {changed}: the network was retrained or "
            "replaced since; delete the file or choose another --json to play the new one"
        )
    if weights and "weights" not in saved:
        warnings.warn(
            f"{path} does not record which network its agents played (it predates that): resuming "
            f"it as {', '.join(weights)} now, which cannot be checked",
            stacklevel=3,
        )
    try:
        check_record(shape, saved["progress"])
    except (TypeError, ValueError) as error:
        raise refuse(f"its progress is inconsistent: {error}") from None
    runs = saved.get("runs", [])
    return saved["progress"], list(runs) if isinstance(runs, list) else []


def weights_changed(saved: Any, weights: dict[str, str]) -> str | None:
    """The agents (a phrase naming their specs and digests) whose weights differ between a saved
    record's ``weights`` and this run's; None when they agree or the record kept none."""
    if saved is None:
        return None
    saved = saved if isinstance(saved, dict) else {}
    specs = sorted(s for s in set(saved) | set(weights) if saved.get(s) != weights.get(s))
    if not specs:
        return None
    return ", ".join(f"{s!r} ({saved.get(s) or 'none'} then, {weights.get(s) or 'none'} now)" for s in specs)


def same_tournament(saved: dict[str, Any], config: dict[str, Any], rules: Rules) -> bool:
    """Whether the file's tournament is this one: the same configuration, or one that names
    the same rules another way (``--players 4`` where the preset's default is 4, an option
    set to its preset's value) with the same agents, deals, tables, seed and streams."""
    if saved["config"] == config:
        return True
    if not isinstance(saved["config"], dict):
        return False
    rest = ("preset", "num_players", "options")
    same_play = {k: v for k, v in saved["config"].items() if k not in rest} == {
        k: v for k, v in config.items() if k not in rest
    }
    same_preset = saved["config"].get("preset") == config["preset"]
    return same_play and same_preset and rules.matches(saved.get("rules"))


_PROGRESS = "\x00progress\x00"
"""Where :func:`record_text` puts the record's one-line ``progress``."""


def record_text(report: dict[str, Any]) -> str:
    """``report`` as the JSON text a record file holds: one field a line, but the resume state
    (``progress``: every deal's points, the table's saved state) on one line, which keeps the
    files a fraction of their indented size."""
    if "progress" not in report:
        return json.dumps(report, indent=1) + "\n"
    text = json.dumps({**report, "progress": _PROGRESS}, indent=1) + "\n"
    return text.replace(json.dumps(_PROGRESS), json.dumps(report["progress"], separators=(",", ":")), 1)


def save_record(path: Path, report: dict[str, Any]) -> None:
    """Write ``report`` (the record inside) to ``path`` atomically (:func:`record_text`,
    :func:`hearts_env.files.write_atomic`): a kill at any moment leaves the previous record or
    this one, whole."""
    write_atomic(path, record_text(report))


OPTIONAL = "move_time"
"""The record's one optional entry: each agent's ``decisions`` and the seconds its ``act`` took
(``act_s``), its move time; records written before it was kept lack it."""


def _check_move_time(shape: RecordShape, times: Any) -> None:
    if not isinstance(times, dict) or set(times) != set(shape.names):
        raise ValueError(f"move_time must be kept for exactly the agents {shape.names}, got {times!r}")
    for name, c in times.items():
        if not isinstance(c, dict) or set(c) != {"decisions", "act_s"}:
            raise ValueError(
                f"move_time of {name!r} must be {{'decisions': int, 'act_s': seconds}}, got {c!r}"
            )
        if not _is_number(c["decisions"], whole=True) or not _is_number(c["act_s"]):
            raise ValueError(f"move_time of {name!r} must hold non-negative numbers, got {c!r}")


def check_record(shape: RecordShape, record: Any) -> None:
    """``ValueError`` saying what is wrong when ``record`` is not progress this tournament
    could have written (consistent counts, right shapes, finite non-negative numbers)."""
    expected = empty_record(shape)
    if not isinstance(record, dict) or set(record) - {OPTIONAL} != set(expected):
        keys = sorted(record) if isinstance(record, dict) else type(record).__name__
        raise ValueError(f"expected the entries {sorted(expected)}, got {keys}")
    rounds, tables, names = shape.rounds, shape.tables, shape.names
    done = record["rounds_done"]
    if isinstance(done, bool) or not isinstance(done, int) or not 0 <= done <= rounds:
        raise ValueError(f"rounds_done must be an int from 0 to {rounds}, got {done!r}")
    if not _is_number(record["elapsed_s"]):
        raise ValueError(f"elapsed_s must be a non-negative number, got {record['elapsed_s']!r}")
    per_deal = record["per_deal"]
    if not isinstance(per_deal, list) or len(per_deal) != done * tables:
        got = len(per_deal) if isinstance(per_deal, list) else type(per_deal).__name__
        raise ValueError(f"per_deal must hold rounds_done x tables = {done * tables} rows, got {got}")
    for i, row in enumerate(per_deal):
        if not isinstance(row, list) or len(row) != len(names) or not all(_is_number(x, True) for x in row):
            raise ValueError(f"per_deal row {i} must be {len(names)} finite numbers, got {row!r}")
    _check_counters(shape, record["counters"], done)
    if OPTIONAL in record:
        _check_move_time(shape, record[OPTIONAL])
    if shape.team_names:
        _check_teams(shape, record, done * tables)
    if shape.slam:
        _check_slam(shape, record["slam_counters"])
    if shape.bid_levels is not None:
        _check_contracts(shape.names, shape.bid_levels, record["smear_counters"])
    _check_table_state(shape, record["table_state"], done)


def _check_counters(shape: RecordShape, counters: Any, done: int) -> None:
    if not isinstance(counters, dict) or set(counters) != set(shape.names):
        got = sorted(counters) if isinstance(counters, dict) else type(counters).__name__
        raise ValueError(f"counters must be kept for exactly the agents {shape.names}, got {got}")
    for name, held in zip(shape.names, shape.seats_held):
        c = counters[name]
        if not isinstance(c, dict) or set(c) != set(COUNTERS):
            raise ValueError(f"counters of {name!r} must be {list(COUNTERS)}, got {c!r}")
        for key in COUNTERS:
            whole = key != "wins"
            if not _is_number(c[key], whole=whole):
                kind = "a non-negative int" if whole else "a non-negative number"
                raise ValueError(f"counter {key!r} of {name!r} must be {kind}, got {c[key]!r}")
        seat_deals = held * shape.tables * done
        if c["seat_deals"] != seat_deals:
            raise ValueError(
                f"{name!r} played {seat_deals} seat-deals in {done} rounds, the record says {c['seat_deals']}"
            )
        if c["wins"] > c["games"] + 1e-6:
            raise ValueError(f"{name!r} won {c['wins']} of {c['games']} games")


def _check_teams(shape: RecordShape, record: dict[str, Any], deals: int) -> None:
    rows, teams = record["team_per_deal"], len(shape.team_names)
    if not isinstance(rows, list) or len(rows) != deals:
        got = len(rows) if isinstance(rows, list) else type(rows).__name__
        raise ValueError(f"team_per_deal must hold rounds_done x tables = {deals} rows, got {got}")
    for i, row in enumerate(rows):
        if not isinstance(row, list) or len(row) != teams or not all(_is_number(x, True) for x in row):
            raise ValueError(f"team_per_deal row {i} must be {teams} finite numbers, got {row!r}")
    counters = record["team_counters"]
    if not isinstance(counters, list) or len(counters) != teams:
        raise ValueError(f"team_counters must be a list of {teams} counters, got {counters!r:.200}")
    for name, c in zip(shape.team_names, counters):
        if not isinstance(c, dict) or set(c) != set(TEAM_COUNTERS):
            raise ValueError(f"team counters of {name!r} must be {list(TEAM_COUNTERS)}, got {c!r}")
        if not _is_number(c["games"], whole=True) or not _is_number(c["wins"]) or c["wins"] > c["games"]:
            raise ValueError(f"team {name!r} counters must be games (int) >= wins >= 0, got {c!r}")


def _check_contracts(names: list[str], levels: frozenset[str], counters: Any) -> None:
    if not isinstance(counters, dict) or set(counters) != set(names):
        raise ValueError(f"smear_counters must be kept for exactly the agents {names}")
    for name in names:
        c = counters[name]
        if not isinstance(c, dict) or set(c) != {"pitched", "made"}:
            raise ValueError(f"smear counters of {name!r} must be 'pitched' and 'made', got {c!r:.200}")
        for key in ("pitched", "made"):
            if not isinstance(c[key], dict) or not set(c[key]) <= levels:
                raise ValueError(
                    f"smear counters of {name!r}: {key} must map bid levels {sorted(levels)} to counts"
                )
            if not all(_is_number(v, whole=True) for v in c[key].values()):
                raise ValueError(f"smear counters of {name!r}: {key} counts must be non-negative ints")
        if any(v > c["pitched"].get(level, 0) for level, v in c["made"].items()):
            raise ValueError(f"smear counters of {name!r}: more contracts made than pitched")


def _check_slam(shape: RecordShape, counters: Any) -> None:
    if not isinstance(counters, dict) or set(counters) != set(shape.names):
        raise ValueError(f"slam_counters must be kept for exactly the agents {shape.names}")
    for name in shape.names:
        c = counters[name]
        if not isinstance(c, dict) or set(c) != set(SLAM_COUNTERS):
            raise ValueError(f"slam counters of {name!r} must be {list(SLAM_COUNTERS)}, got {c!r}")
        if not (_is_number(c["bids"], whole=True) and _is_number(c["paired"], whole=True)):
            raise ValueError(f"slam counters of {name!r}: bids and paired must be non-negative ints")
        if not _is_number(c["paired_points"], negative=True):
            raise ValueError(f"slam counters of {name!r}: paired_points must be a finite number")


def _check_table_state(shape: RecordShape, state: Any, done: int) -> None:
    if done == 0:
        if state is not None:
            raise ValueError("table_state must be null before the first round")
        return
    b, p = shape.batch, shape.num_players
    shapes = {"totals": (b, p), "game_over": (b,), "deal_index": (b,)}
    if not isinstance(state, dict) or set(state) != set(shapes):
        raise ValueError(f"table_state must hold {sorted(shapes)}, got {state!r:.200}")
    for key, want in shapes.items():
        value = np.array(state[key], dtype=object)
        kind = bool if key == "game_over" else int
        ok = value.shape == want and all(
            isinstance(x, kind) and (kind is bool or not isinstance(x, bool)) for x in value.flat
        )
        if not ok:
            raise ValueError(f"table_state {key!r} must be a {want} list of {kind.__name__}s")
    if any(x < 0 for x in state["deal_index"]):
        raise ValueError("table_state 'deal_index' must not be negative")


def _is_number(value: Any, negative: bool = False, whole: bool = False) -> bool:
    """A JSON number (not a bool) that is finite, an int when ``whole``, ``>= 0`` unless ``negative``."""
    if isinstance(value, bool) or not isinstance(value, int if whole else (int, float)):
        return False
    return math.isfinite(value) and (negative or value >= 0)
