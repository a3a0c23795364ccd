"""Duplicate tournaments between agents on the batched engine.

Format
------
Deals are generated once from the seed. ``tables`` duplicate tables play side by side; table
``t`` plays its own sequence of deals, one per round, and its deals form games: totals carry
over until a player reaches the target score, then a new game starts with the next deal. Every
table is replayed once per *rotation* of the seating, so each agent holds each hand of every
deal (with several copies of an agent, rotations that give the same seating are played once).
Each round's pass direction and dealer come from the round index, so all replays of a deal are
dealt identically (Domino Hearts' stock too: its draw order is drawn once per deal). Deals may
end on different steps (declarations, a bidding round, the shooter's choice, Domino's draws:
the agents decide differently in different seatings); a round steps until every game's deal is
over (the table ignores the games already done) and asks the agents only for the others.

Partnerships: the rotations are cyclic, so partners sitting opposite (``rules.teams``, seats
(0, 2) and (1, 3)) stay partners in every rotation — the agents at seating positions 0 and 2
form one team and those at 1 and 3 the other, whichever seats they hold. This is checked when
the tournament is built (:func:`team_positions`): a team layout some rotation would split is
refused.

Statistics
----------
The unit is the deal: an agent's score on a deal is its mean deal points (after moon and
bonus rules) over every seat it held in every rotation of that deal; ``mean_points`` and its
``ci95`` (1.96 standard errors) are over deals, and so are the per-pair differences. Game win
rate: completed games only, a win shared between tied lowest totals, over the seat-games the
agent played. ``moons_shot`` / ``moons_allowed``: deals in which the agent's seat shot the moon /
another seat did. ``illegal``: actions outside the mask (each is replaced by a random legal
action so the game goes on; the count must be 0).

Teams (``rules.teams``): a seat's game is won with its team — the lower team total (the sum of
the partners' totals) wins, each partner is credited the win, tied teams share it. The report's
``teams`` section gives each team (named by its agents, e.g. ``strategy+strategy``, and its
seating positions) its mean deal points (``team_points``: its players' deal points together)
with their ``ci95`` over deals and its game win rate; ``team_pairs`` the differences between
teams. Partnership C (the slam bid's silent pair, ``bidding="slam"``): the ``slam`` section
counts each agent's slam bids, the seat-deals it played in a slam pair (as the bidder or the
silent partner) and its mean deal points in them.

Random streams: the agents' random numbers of a round come from one generator for the whole
batch (``streams=1``, the default), so which numbers a game gets depends on every other game.
``streams=S`` splits the tables into S contiguous groups, each with its own generator per round:
the groups are independent, and :mod:`evaluation.ray_pool` plays them on Ray actors (one code
path, :class:`RoundPlayer`) with a report identical to this process's for the same configuration.

Resuming: the JSON file is rewritten after every round and holds everything needed to go on; run
the same command again and it continues where it stopped (a different configuration refuses).
A file that is not such a record (empty, truncated, not JSON, edited by hand into an inconsistent
state) is refused with one ``ValueError`` naming it and what is wrong.
"""

from __future__ import annotations

import json
import math
import os
import time
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np

from agents import Agent, family_defaults, from_spec, parse_spec, refusal
from agents.base import random_legal
from evaluation.flags import non_negative_int, positive_int
from evaluation.provenance import run_record
from hearts_env.families import family
from hearts_env.presets import make_rules
from hearts_env.rules import PASS_DIRECTIONS, Rules
from hearts_env.stock import stock_order
from hearts_env.table import Table

Z95 = 1.959964
"""Normal quantile of a two-sided 95% interval."""


@dataclass
class TournamentConfig:
    """What a tournament plays; the JSON file records it so a resume can check it."""

    preset: str = "hearts"
    """Preset name (docs/rules.md)."""
    num_players: int | None = None
    """Players per table; None: the preset's default."""
    options: dict[str, Any] = field(default_factory=dict)
    """Rule options over the preset (docs/rules.md), e.g. ``{"hearts_break": "heart_or_queen"}``."""
    agents: list[str] | None = None
    """Agent specs (``agents.parse_spec``), seated in this order and repeated to fill the table;
    None: the game family's (``agents.family_defaults``: ``strategy, ducker, lowest, random`` for
    the Hearts family, ``smear, lowest, random`` for Smear)."""
    deals: int = 4000
    """Distinct deals to play (rounded up to a multiple of the rounds); each is replayed per rotation."""
    tables: int = 100
    """Duplicate tables played side by side (each plays ``deals / tables`` deals in sequence)."""
    seed: int = 0
    """Seed of the deals and of the agents' random numbers."""
    streams: int = 1
    """Independent random streams: the tables split into this many groups (at most one per table:
    more streams than tables are refused), each with its own agents' generator per round; what
    Ray actors play in parallel (see above)."""

    def validate(self) -> TournamentConfig:
        """Check every field (``TypeError`` / ``ValueError`` naming it and the value); returns ``self``."""
        if not isinstance(self.preset, str):
            raise TypeError(f"preset must be a str, got {type(self.preset).__name__} {self.preset!r}")
        if self.num_players is not None:
            self.num_players = positive_int.check("num_players", self.num_players)
        if not isinstance(self.options, dict) or not all(isinstance(k, str) for k in self.options):
            raise TypeError(f"options must be a dict of rule option names to values, got {self.options!r}")
        if self.agents is None:
            self.agents = list(family_defaults(self.rules().game).tournament)
        if not isinstance(self.agents, (list, tuple)) or not all(isinstance(a, str) for a in self.agents):
            raise TypeError(f"agents must be a list of agent specs such as ['strategy'], got {self.agents!r}")
        self.agents = list(self.agents)
        for spec in self.agents:
            parse_spec(spec)
        self.deals = positive_int.check("deals", self.deals)
        self.tables = positive_int.check("tables", self.tables)
        self.seed = non_negative_int.check("seed", self.seed)
        self.streams = positive_int.check("streams", self.streams)
        if self.streams > self.table_count:
            raise ValueError(
                f"streams={self.streams} is more than the {self.table_count} tables this tournament "
                "plays: each stream needs at least one table (use --streams <= --tables)"
            )
        return self

    def record(self) -> dict[str, Any]:
        """The configuration as the JSON file keeps it (``streams`` only when not 1, so files
        written before it existed still resume)."""
        out = asdict(self)
        if out["streams"] == 1:
            del out["streams"]
        return out

    def rules(self) -> Rules:
        """The rules every table plays."""
        return make_rules(self.preset, num_players=self.num_players, **self.options)

    @property
    def rounds(self) -> int:
        """Deals each table plays."""
        return math.ceil(self.deals / min(self.tables, self.deals))

    @property
    def table_count(self) -> int:
        """Tables actually used (enough for ``deals`` with ``rounds`` each)."""
        return math.ceil(self.deals / self.rounds)


def seating(specs: Sequence[str], num_players: int) -> list[str]:
    """Specs repeated in order to fill ``num_players`` seats."""
    if not specs:
        raise ValueError("a tournament needs at least one agent")
    if len(specs) > num_players:
        raise ValueError(f"{len(specs)} agents do not fit {num_players} seats; use --players or fewer agents")
    return [specs[seat % len(specs)] for seat in range(num_players)]


def rotations(seats: Sequence[str]) -> list[list[str]]:
    """The distinct cyclic rotations of a seating: rotation r seats ``seats[(j + r) % P]`` at seat j."""
    return [[seats[(j + r) % len(seats)] for j in range(len(seats))] for r in rotation_offsets(seats)]


def rotation_offsets(seats: Sequence[str]) -> list[int]:
    """The offsets r of :func:`rotations` (the first r giving each distinct seating)."""
    out: list[int] = []
    seen: list[list[str]] = []
    for r in range(len(seats)):
        rotated = [seats[(j + r) % len(seats)] for j in range(len(seats))]
        if rotated not in seen:
            seen.append(rotated)
            out.append(r)
    return out


def team_positions(teams: Sequence[Sequence[int]], offsets: Sequence[int], num_players: int) -> np.ndarray:
    """(R, P): the team (index into ``teams``, as the seating positions form them) that sits at
    each seat in each rotation. A cyclic rotation moves positions (0, 2) and (1, 3) onto each
    other, so partners stay partners; a team layout that a rotation would split raises."""
    team_of = {seat: t for t, team in enumerate(teams) for seat in team}
    out = np.zeros((len(offsets), num_players), np.int64)
    for i, r in enumerate(offsets):
        out[i] = [team_of[(seat + r) % num_players] for seat in range(num_players)]
        for team in teams:
            if len({int(out[i, seat]) for seat in team}) > 1:
                raise ValueError(
                    f"teams {[list(x) for x in teams]}: rotating the seating by {r} splits the "
                    f"partnership {list(team)}; duplicate tournaments need teams that cyclic "
                    "rotations keep together (partners opposite)"
                )
    return out


def short_name(spec: str) -> str:
    """An agent spec for display: ``ppo:checkpoint=runs/demo/policy.pt`` -> ``ppo (runs/demo)``
    (a checkpoint by its folder), other specs as they are."""
    name, _, rest = spec.partition(":")
    params = dict(part.partition("=")[::2] for part in rest.split(":")) if rest else {}
    if "checkpoint" in params:
        folder = Path(params["checkpoint"]).parent
        return f"{name} ({folder.name or params['checkpoint']})"
    return spec


class Tournament:
    """Runs a :class:`TournamentConfig`, saving to ``json_path`` after each round if given.
    ``labels``: display names of agent specs for the progress bar (default :func:`short_name`)."""

    def __init__(
        self,
        config: TournamentConfig,
        json_path: str | Path | None = None,
        progress: bool = True,
        labels: Mapping[str, str] | None = None,
        command: str | None = None,
    ) -> None:
        self.config = config.validate()
        self.json_path = Path(json_path) if json_path else None
        self.progress = progress
        self.labels = dict(labels or {})
        self.command = command
        self.runs: list[dict[str, Any]] = []
        """Provenance of every run that wrote the record (:mod:`evaluation.provenance`)."""
        self.rules = config.rules()
        if self.rules.first_trick_all_penalty == "redeal":
            # The pass differs between seatings, so a deal cancelled in one would be played in
            # another: the replays of a deal would no longer be the same deal.
            raise ValueError(
                "first_trick_all_penalty='redeal' cannot be played as duplicate deals (a deal "
                "cancelled in one seating is played in another); use 'play', 'not_counted' or 'to_lowest'"
            )
        p = self.rules.num_players
        self.names = list(dict.fromkeys(config.agents))  # unique specs, first-seen order
        for spec in self.names:  # an agent that cannot play these rules: one line, before anything runs
            reason = refusal(parse_spec(spec)[0], self.rules)
            if reason:
                raise ValueError(reason)
        seats = seating(config.agents, p)
        self.rotations = rotations(seats)
        offsets = rotation_offsets(seats)
        # agent_of[r, seat]: index into self.names of the agent at that seat in rotation r.
        self.agent_of = np.array([[self.names.index(s) for s in rot] for rot in self.rotations])
        self.tables = config.table_count
        self.batch = self.tables * len(self.rotations)
        self.row_agents = np.tile(self.agent_of, (self.tables, 1))  # (B, P): rows are (table, rotation)
        # Fixed teams: team_at[r, seat] is the team (by seating positions) at that seat.
        self.teams = [list(team) for team in self.rules.teams]
        self.team_names = ["+".join(seats[i] for i in team) for team in self.teams]
        self.team_at = team_positions(self.rules.teams, offsets, p) if self.teams else None
        self.slam = self.rules.bidding == "slam"
        self.smear = self.rules.game == "smear"
        # Stream s plays the tables stream_tables[s] (contiguous), on its own agents' generator.
        self.stream_tables = [
            range(int(part[0]), int(part[-1]) + 1)
            for part in np.array_split(np.arange(self.tables), min(config.streams, self.tables))
        ]
        self.table = Table(self.rules, self.batch)
        self.record = self._load() or self._empty_record()

    # ------------------------------------------------------------------ records
    COUNTERS = ("seat_deals", "games", "wins", "moons_shot", "moons_allowed", "illegal")
    """Per-agent counters of the record (``wins`` is fractional: shared between tied winners)."""

    TEAM_COUNTERS = ("games", "wins")
    """Per-team counters (fixed teams)."""
    SLAM_COUNTERS = ("bids", "paired", "paired_points")
    """Per-agent counters of Partnership C's slam pairs (``paired_points``: their sum)."""

    def _empty_record(self) -> dict[str, Any]:
        record: dict[str, Any] = {
            "rounds_done": 0,
            "elapsed_s": 0.0,
            "per_deal": [],
            "counters": {name: {c: 0 for c in self.COUNTERS} for name in self.names},
            "table_state": None,
        }
        # Only tournaments with teams have these entries: older records load unchanged.
        if self.teams:
            record["team_per_deal"] = []
            record["team_counters"] = [{c: 0 for c in self.TEAM_COUNTERS} for _ in self.teams]
        if self.slam:
            record["slam_counters"] = {name: {c: 0 for c in self.SLAM_COUNTERS} for name in self.names}
        if self.smear:  # contracts by bid level: {agent: {"pitched": {level: n}, "made": {level: n}}}
            record["smear_counters"] = {name: {"pitched": {}, "made": {}} for name in self.names}
        return record

    def _load(self) -> dict[str, Any] | None:
        if self.json_path is None or not self.json_path.exists():
            return None
        path = self.json_path

        def refuse(why: str) -> ValueError:
            return ValueError(
                f"{path} is not a usable tournament record: {why}; delete it (or choose another --json) "
                "to start this tournament afresh"
            )

        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            raise refuse("it is not text") from None
        if not text.strip():
            raise refuse("it is empty")
        try:
            saved = json.loads(text)
        except json.JSONDecodeError as error:
            raise refuse(f"it is not valid JSON (truncated or edited? {error})") from None
        if not isinstance(saved, dict) or "config" not in saved or "progress" not in saved:
            raise refuse("it has no 'config' and 'progress' entries (not written by a tournament)")
        if not self._same_tournament(saved):
            raise ValueError(
                f"{path} holds a different tournament ({saved['config']}); "
                "delete it or choose another --json to start this one"
            )
        try:
            self._check_record(saved["progress"])
        except (TypeError, ValueError) as error:
            raise refuse(f"its progress is inconsistent: {error}") from None
        runs = saved.get("runs", [])
        self.runs = list(runs) if isinstance(runs, list) else []
        return saved["progress"]

    def _same_tournament(self, saved: dict[str, Any]) -> bool:
        """Whether the file's tournament is this one: the same configuration, or one that names
        the same rules another way (``--players 4`` where the preset's default is 4, an option
        set to its preset's value) with the same agents, deals, tables, seed and streams."""
        mine = self.config.record()
        if saved["config"] == mine:
            return True
        if not isinstance(saved["config"], dict):
            return False
        rest = ("preset", "num_players", "options")
        same_play = {k: v for k, v in saved["config"].items() if k not in rest} == {
            k: v for k, v in mine.items() if k not in rest
        }
        rules = json.loads(json.dumps(self.rules.describe()))
        return same_play and saved["config"].get("preset") == mine["preset"] and saved.get("rules") == rules

    @property
    def complete(self) -> bool:
        """Whether every round has been played (a run then plays nothing and reports the record)."""
        return self.record["rounds_done"] >= self.config.rounds

    def _check_record(self, record: Any) -> None:
        """``ValueError`` saying what is wrong when ``record`` is not progress this tournament
        could have written (consistent counts, right shapes, finite non-negative numbers)."""
        if not isinstance(record, dict) or set(record) != set(self._empty_record()):
            keys = sorted(record) if isinstance(record, dict) else type(record).__name__
            raise ValueError(f"expected the entries {sorted(self._empty_record())}, got {keys}")
        rounds, tables, agents = self.config.rounds, self.tables, len(self.names)
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
            if (
                not isinstance(row, list)
                or len(row) != agents
                or not all(_is_number(x, negative=True) for x in row)
            ):
                raise ValueError(f"per_deal row {i} must be {agents} finite numbers, got {row!r}")
        counters = record["counters"]
        if not isinstance(counters, dict) or set(counters) != set(self.names):
            got = sorted(counters) if isinstance(counters, dict) else type(counters).__name__
            raise ValueError(f"counters must be kept for exactly the agents {self.names}, got {got}")
        for a, name in enumerate(self.names):
            c = counters[name]
            if not isinstance(c, dict) or set(c) != set(self.COUNTERS):
                raise ValueError(f"counters of {name!r} must be {list(self.COUNTERS)}, got {c!r}")
            for key in self.COUNTERS:
                whole = key != "wins"
                if not _is_number(c[key], whole=whole):
                    kind = "a non-negative int" if whole else "a non-negative number"
                    raise ValueError(f"counter {key!r} of {name!r} must be {kind}, got {c[key]!r}")
            seat_deals = int((self.agent_of == a).sum()) * tables * done
            if c["seat_deals"] != seat_deals:
                raise ValueError(
                    f"{name!r} played {seat_deals} seat-deals in {done} rounds, the record says "
                    f"{c['seat_deals']}"
                )
            if c["wins"] > c["games"] + 1e-6:
                raise ValueError(f"{name!r} won {c['wins']} of {c['games']} games")
        if self.teams:
            self._check_teams_record(record, done * tables)
        if self.slam:
            self._check_slam_record(record["slam_counters"])
        if self.smear:
            self._check_smear_record(record["smear_counters"])
        state = record["table_state"]
        if done == 0:
            if state is not None:
                raise ValueError("table_state must be null before the first round")
            return
        b, p = self.batch, self.rules.num_players
        shapes = {"totals": (b, p), "game_over": (b,), "deal_index": (b,)}
        if not isinstance(state, dict) or set(state) != set(shapes):
            raise ValueError(f"table_state must hold {sorted(shapes)}, got {state!r:.200}")
        for key, shape in shapes.items():
            value = np.array(state[key], dtype=object)
            kind = bool if key == "game_over" else int
            ok = value.shape == shape and all(
                isinstance(x, kind) and (kind is bool or not isinstance(x, bool)) for x in value.flat
            )
            if not ok:
                raise ValueError(f"table_state {key!r} must be a {shape} list of {kind.__name__}s")
        if any(x < 0 for x in state["deal_index"]):
            raise ValueError("table_state 'deal_index' must not be negative")

    def _check_teams_record(self, record: dict[str, Any], deals: int) -> None:
        rows, teams = record["team_per_deal"], len(self.teams)
        if not isinstance(rows, list) or len(rows) != deals:
            got = len(rows) if isinstance(rows, list) else type(rows).__name__
            raise ValueError(f"team_per_deal must hold rounds_done x tables = {deals} rows, got {got}")
        for i, row in enumerate(rows):
            if not isinstance(row, list) or len(row) != teams or not all(_is_number(x, True) for x in row):
                raise ValueError(f"team_per_deal row {i} must be {teams} finite numbers, got {row!r}")
        counters = record["team_counters"]
        if not isinstance(counters, list) or len(counters) != teams:
            raise ValueError(f"team_counters must be a list of {teams} counters, got {counters!r:.200}")
        for name, c in zip(self.team_names, counters):
            if not isinstance(c, dict) or set(c) != set(self.TEAM_COUNTERS):
                raise ValueError(f"team counters of {name!r} must be {list(self.TEAM_COUNTERS)}, got {c!r}")
            if not _is_number(c["games"], whole=True) or not _is_number(c["wins"]) or c["wins"] > c["games"]:
                raise ValueError(f"team {name!r} counters must be games (int) >= wins >= 0, got {c!r}")

    def _check_smear_record(self, counters: Any) -> None:
        if not isinstance(counters, dict) or set(counters) != set(self.names):
            raise ValueError(f"smear_counters must be kept for exactly the agents {self.names}")
        levels = {str(v) for v in self.table.engine.bid_value.tolist() if v > 0}
        for name in self.names:
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

    def _check_slam_record(self, counters: Any) -> None:
        if not isinstance(counters, dict) or set(counters) != set(self.names):
            raise ValueError(f"slam_counters must be kept for exactly the agents {self.names}")
        for name in self.names:
            c = counters[name]
            if not isinstance(c, dict) or set(c) != set(self.SLAM_COUNTERS):
                raise ValueError(f"slam counters of {name!r} must be {list(self.SLAM_COUNTERS)}, got {c!r}")
            if not (_is_number(c["bids"], whole=True) and _is_number(c["paired"], whole=True)):
                raise ValueError(f"slam counters of {name!r}: bids and paired must be non-negative ints")
            if not _is_number(c["paired_points"], negative=True):
                raise ValueError(f"slam counters of {name!r}: paired_points must be a finite number")

    def _save(self) -> None:
        if self.json_path is None:
            return
        self.json_path.parent.mkdir(parents=True, exist_ok=True)
        partial = self.json_path.with_suffix(".json.partial")
        partial.write_text(json.dumps(self.report(), indent=1))
        os.replace(partial, self.json_path)

    # ------------------------------------------------------------------ playing
    def run(
        self, max_rounds: int | None = None, time_limit_s: float | None = None, pool: Any = None
    ) -> dict[str, Any]:
        """Play the remaining rounds and return the report (see :meth:`report`).

        ``max_rounds``: play at most this many rounds now; ``time_limit_s``: start no new round
        after this many seconds. Either way the JSON file lets a later run go on. ``pool``: where
        the rounds are played (None: here), an object whose ``rounds(tournament, ks)`` yields
        :meth:`RoundPlayer.play`'s results of the rounds ``ks`` in order, such as
        :class:`evaluation.ray_pool.RayPool`; they are scored here, so the report is the same.
        """
        rounds = self.config.rounds
        done = self.record["rounds_done"]
        if max_rounds is not None:
            rounds = min(rounds, done + max_rounds)
        todo = range(done, rounds)
        if len(todo):
            self.runs.append(run_record(self.command))
        results = pool.rounds(self, todo) if pool is not None else self._local_rounds(todo)
        began = time.perf_counter()
        bar = progress_bar(
            total=self.config.rounds * self.tables, initial=done * self.tables, unit="deal",
            disable=not self.progress, desc=self._bar_text(),
        )  # fmt: skip
        try:
            for k in todo:
                if time_limit_s is not None and time.perf_counter() - began > time_limit_s:
                    break
                start = time.perf_counter()
                self._score_round(next(results))
                self.record["rounds_done"] = k + 1
                self.record["elapsed_s"] += time.perf_counter() - start
                self._save()
                bar.update(self.tables)
        finally:
            results.close()
            bar.close()
        return self.report()

    def _bar_text(self) -> str:
        """``hearts: ppo (fresh) v strategy v random (points, lower is better)``."""
        names = " v ".join(self.labels.get(spec, short_name(spec)) for spec in self.names)
        better = family(self.rules).better
        return f"{self.config.preset}: {names} (points, {better} is better)"

    def _local_rounds(self, todo: range) -> Iterator[dict[str, np.ndarray]]:
        """The rounds ``todo`` played in this process, on :attr:`table` (every table)."""
        player = RoundPlayer(self, range(self.tables), table=self.table)
        for k in todo:
            yield player.play(k, self.record["table_state"] if k > 0 else None)

    def _score_round(self, info: dict[str, np.ndarray]) -> None:
        """Add one round's results (:meth:`RoundPlayer.play`, every table) to the record."""
        p, r = self.rules.num_players, len(self.rotations)
        illegal = info["illegal"]
        counters = [self.record["counters"][name] for name in self.names]
        points = info["deal_points"].reshape(self.tables, r, p).astype(float)
        for a, c in enumerate(counters):
            at = self.agent_of == a  # (R, P) seats the agent holds
            c["seat_deals"] += int(at.sum()) * self.tables
            c["illegal"] += int(illegal[a])
        means = np.stack([(points * (self.agent_of == a)).sum(axis=(1, 2)) / (self.agent_of == a).sum()
                          for a in range(len(self.names))], axis=1)  # fmt: skip
        self.record["per_deal"].extend(means.round(6).tolist())
        shooter = info["moon_shooter"]
        for row in np.flatnonzero(shooter >= 0):
            for seat in range(p):
                key = "moons_shot" if seat == shooter[row] else "moons_allowed"
                counters[self.row_agents[row, seat]][key] += 1
        team_at = None if self.team_at is None else np.tile(self.team_at, (self.tables, 1))  # (B, P)
        side_of = np.array(self.rules.team_of)
        for row in np.flatnonzero(info["game_over"] & self.smear):  # Smear: the engine names the winning side
            for seat in range(p):
                c = counters[self.row_agents[row, seat]]
                c["games"] += 1
                c["wins"] += float(side_of[seat] == info["winner"][row])
        for row in np.flatnonzero(info["game_over"] & (not self.smear)):
            totals = info["total_points"][row]
            share = np.ones(p)
            if team_at is not None:  # a seat wins with its team: the lower team total
                totals = np.array([totals[team_at[row] == team_at[row, seat]].sum() for seat in range(p)])
                share = np.array([(team_at[row] == team_at[row, seat]).sum() for seat in range(p)], float)
            winners = totals == totals.min()
            for seat in range(p):
                c = counters[self.row_agents[row, seat]]
                c["games"] += 1
                c["wins"] += float(winners[seat]) * share[seat] / int(winners.sum())
        if team_at is not None:
            self._score_teams(info, team_at)
        if self.slam:
            self._score_slam(info)
        if self.smear:
            self._score_contracts(info)
        self.record["table_state"] = {
            "totals": info["total_points"].tolist(),
            "game_over": info["game_over"].tolist(),
            "deal_index": info["deal_index"].tolist(),
        }

    def _score_teams(self, info: dict[str, np.ndarray], team_at: np.ndarray) -> None:
        """Each team's mean team points per deal, and its games and wins."""
        r, teams = len(self.rotations), len(self.teams)
        team_points = info["team_points"].astype(float)  # (B, P): each seat's team's points
        at = team_at.reshape(self.tables, r, -1)
        pts = team_points.reshape(self.tables, r, -1)
        means = np.stack(
            [(pts * (at == t)).sum(axis=(1, 2)) / (at == t).sum(axis=(1, 2)) for t in range(teams)], axis=1
        )
        self.record["team_per_deal"].extend(means.round(6).tolist())
        counters = self.record["team_counters"]
        for row in np.flatnonzero(info["game_over"]):
            if self.smear:  # the winning side's seats hold one seating team
                winners = np.zeros(teams, bool)
                if info["winner"][row] >= 0:
                    winners[team_at[row, self.rules.teams[info["winner"][row]][0]]] = True
                for t in range(teams):
                    counters[t]["games"] += 1
                    counters[t]["wins"] += float(winners[t])
                continue
            totals = info["total_points"][row]
            sums = np.array([totals[team_at[row] == t].sum() for t in range(teams)])
            winners = sums == sums.min()
            for t in range(teams):
                counters[t]["games"] += 1
                counters[t]["wins"] += float(winners[t]) / int(winners.sum())

    def _score_contracts(self, info: dict[str, np.ndarray]) -> None:
        """Smear: each pitcher's contract (bid level, made or not), credited to his agent."""
        counters = self.record["smear_counters"]
        for row in np.flatnonzero(info["pitcher"] >= 0).tolist():
            c = counters[self.names[self.row_agents[row, info["pitcher"][row]]]]
            level = str(int(info["bid"][row]))
            c["pitched"][level] = c["pitched"].get(level, 0) + 1
            if info["made"][row]:
                c["made"][level] = c["made"].get(level, 0) + 1

    def _score_slam(self, info: dict[str, np.ndarray]) -> None:
        """Partnership C: who bid the slam and who played in a slam pair (``slam_bidder`` and
        ``slam_partner`` of :meth:`RoundPlayer.play`)."""
        counters = self.record["slam_counters"]
        bidder, partner = info["slam_bidder"], info["slam_partner"]
        for row in np.flatnonzero(bidder >= 0).tolist():
            counters[self.names[self.row_agents[row, bidder[row]]]]["bids"] += 1
            if partner[row] >= 0:
                for member in (int(bidder[row]), int(partner[row])):
                    c = counters[self.names[self.row_agents[row, member]]]
                    c["paired"] += 1
                    c["paired_points"] += int(info["deal_points"][row, member])

    # ------------------------------------------------------------------ results
    def _team_report(self) -> dict[str, Any]:
        per_deal = np.array(self.record["team_per_deal"], float).reshape(-1, len(self.teams))
        return _team_summary(self.team_names, self.teams, per_deal, self.record["team_counters"])

    def report(self) -> dict[str, Any]:
        """The results so far: per agent, per pair, the configuration and the resume record."""
        per_deal = np.array(self.record["per_deal"], float).reshape(-1, len(self.names))
        n = len(per_deal)
        rows = []
        for a, name in enumerate(self.names):
            c = self.record["counters"][name]
            mean, ci = _mean_ci(per_deal[:, a])
            rows.append({
                "name": name, "mean_points": mean, "ci95": ci,
                "win_rate": c["wins"] / c["games"] if c["games"] else None, "games": c["games"],
                "moons_shot": c["moons_shot"], "moons_allowed": c["moons_allowed"],
                "seat_deals": c["seat_deals"], "illegal": c["illegal"],
            })  # fmt: skip
        pairs = []
        for a, b in combinations(range(len(self.names)), 2):
            mean, ci = _mean_ci(per_deal[:, a] - per_deal[:, b])
            pairs.append({"a": self.names[a], "b": self.names[b], "mean_diff": mean, "ci95": ci})
        extra: dict[str, Any] = {}
        if self.teams:
            extra.update(self._team_report())
        if self.smear:
            extra["contracts"] = [
                {
                    "name": name,
                    "by_bid": {
                        level: {
                            "pitched": n,
                            "made": c["made"].get(level, 0),
                            "made_rate": round(c["made"].get(level, 0) / n, 4),
                        }
                        for level, n in sorted(c["pitched"].items(), key=lambda kv: int(kv[0]))
                    },
                }
                for name, c in self.record["smear_counters"].items()
            ]
        if self.slam:
            extra["slam"] = [
                {
                    "name": name, "bids": c["bids"], "paired": c["paired"],
                    "mean_paired_points": round(c["paired_points"] / c["paired"], 4) if c["paired"] else None,
                }
                for name, c in self.record["slam_counters"].items()
            ]  # fmt: skip
        return {
            "preset": self.config.preset,
            "num_players": self.rules.num_players,
            "deals": n,
            "deals_planned": self.config.rounds * self.tables,
            "better": family(self.rules).better,
            "agents": rows,
            "pairs": pairs,
            "rotations": self.rotations,
            **extra,
            "elapsed_s": round(self.record["elapsed_s"], 2),
            "rules": self.rules.describe(),
            "config": self.config.record(),
            "runs": self.runs,
            "progress": self.record,
        }


class RoundPlayer:
    """Plays rounds of a :class:`Tournament` on some of its tables and returns what happened,
    unscored (:meth:`Tournament._score_round` scores it): the one code path of a run in this
    process (every table) and of each Ray actor (:mod:`evaluation.ray_pool`: whole streams).

    ``tables``: the contiguous tables played (whole streams of ``tournament.stream_tables``);
    ``table``: the :class:`Table` to play on (default: a new one for these tables' rows)."""

    def __init__(self, tournament: Tournament, tables: range, table: Table | None = None) -> None:
        t = self.tournament = tournament
        self.tables = tables
        r = len(t.rotations)
        self.rows = np.arange(tables.start * r, tables.stop * r)  # the tournament's rows (table, rotation)
        self.row_agents = t.row_agents[self.rows]
        self.table = table if table is not None else Table(t.rules, len(self.rows))
        if self.table.num_games != len(self.rows):
            raise ValueError(f"a table of {len(self.rows)} games is needed, got {self.table.num_games}")
        self.agents: list[Agent] = [from_spec(name, t.rules) for name in t.names]
        self.streams: list[tuple[int, slice]] = []  # (stream, its rows in self.table)
        for s, held in enumerate(t.stream_tables):
            lo, hi = max(held.start, tables.start), min(held.stop, tables.stop)
            if lo < hi and (lo, hi) != (held.start, held.stop):
                raise ValueError(f"tables {tables} split the stream of tables {held}")
            if lo < hi:
                self.streams.append((s, slice((lo - tables.start) * r, (hi - tables.start) * r)))

    def play(self, k: int, state: dict[str, Any] | None = None) -> dict[str, np.ndarray]:
        """Play round ``k`` (each table's next deal, in every seating) to its end; ``state``: the
        record's ``table_state`` (every table) to restore first (a resume). Returns the per-row
        arrays of :meth:`Table.game_info` with ``deal_index`` (and, Partnership C,
        ``slam_bidder`` / ``slam_partner``, -1 for none), and ``illegal``: per agent."""
        t, cfg, table = self.tournament, self.tournament.config, self.table
        p, n = t.rules.num_players, len(self.rows)
        local, mine_tables = np.arange(n), slice(self.tables.start, self.tables.stop)
        hands, kitty = table.engine.shuffled_hands(np.random.default_rng([cfg.seed, k]), t.tables)
        repeat = len(t.rotations)
        if state is not None:
            table.restore_games(
                np.asarray(state["totals"], np.int64)[self.rows],
                np.asarray(state["deal_index"], np.int64)[self.rows],
                np.asarray(state["game_over"], bool)[self.rows],
            )
        # Domino Hearts: the stock's draw order is part of the deal, the same in every seating.
        order = None
        if table.engine.stock_size:
            order = stock_order(kitty, table.engine.stock_size, np.random.default_rng([cfg.seed, k, 2]))
            order = np.repeat(order[mine_tables], repeat, axis=0)
        table.deal_masks(
            np.repeat(hands[mine_tables], repeat, axis=0),
            np.repeat(kitty[mine_tables], repeat, axis=0),  # (tables,) or, with two decks, (tables, 2)
            dealer=k % p,
            pass_direction=PASS_DIRECTIONS.index(t.rules.pass_direction(k)),
            new_game=k == 0,
            stock=order,
        )
        one = len(t.stream_tables) == 1  # one stream: the generator of every earlier version
        rngs = [np.random.default_rng([cfg.seed, k, 1, *([] if one else [s])]) for s, _ in self.streams]
        illegal = np.zeros(len(t.names), np.int64)
        over = np.zeros(n, bool)  # games whose deal has ended (they wait for the rest)
        while not over.all():
            obs, mask, seat = table.observe(), table.action_mask(), table.current_player.copy()
            who = np.where(over, -1, self.row_agents[local, seat])
            actions = np.zeros(n, np.int64)
            for (_, rows), rng in zip(self.streams, rngs):
                for a, agent in enumerate(self.agents):
                    mine = rows.start + np.flatnonzero(who[rows] == a)
                    if mine.size:
                        slot = (k * t.batch + self.rows[mine]) * p + seat[mine]
                        batch = {"observation": obs[mine], "action_mask": mask[mine], "slot": slot}
                        actions[mine] = agent.act(batch, rng)
                act, legal = actions[rows], mask[rows]
                ok = (act >= 0) & (act < legal.shape[1])
                ok &= legal[np.arange(len(act)), np.clip(act, 0, legal.shape[1] - 1)] > 0
                bad = rows.start + np.flatnonzero(~ok & ~over[rows])
                if bad.size:
                    np.add.at(illegal, who[bad], 1)
                    actions[bad] = random_legal(mask[bad], rng)
            over |= table.step(actions).deal_ended
        info = table.game_info(local)
        info["deal_index"] = np.array(table.deal_index)
        if t.slam:
            info.update(self._slam_pairs())
        info["illegal"] = illegal
        return info

    def _slam_pairs(self) -> dict[str, np.ndarray]:
        """Partnership C, at a deal's end: the slam bidder and his silent partner of every row
        (-1: none), read from the public observation (seat 0's ``decisions`` piece, the bidder's
        ``partners``)."""
        table, rules = self.table, self.tournament.rules
        lay = table.observer.layout
        slam = rules.decisions.index("slam")
        seats = np.zeros(table.num_games, np.int64)
        bids = lay.view(table.observe(seats), "decisions")[:, :, slam] > 0.5  # (B, P): seat 0's view
        bid = bids.any(axis=1)
        seats[bid] = np.argmax(bids[bid], axis=1)
        mates = lay.view(table.observe(seats), "partners") > 0.5  # (B, P) relative to the bidder
        partner = (seats + np.argmax(mates, axis=1)) % rules.num_players
        return {
            "slam_bidder": np.where(bid, seats, -1),
            "slam_partner": np.where(bid & mates.any(axis=1), partner, -1),
        }


def merge_rounds(parts: Sequence[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """One round's results of every table from :meth:`RoundPlayer.play`'s results of
    consecutive tables, in table order: rows concatenated, ``illegal`` summed."""
    return {
        key: (
            np.sum([part[key] for part in parts], axis=0)
            if key == "illegal"
            else np.concatenate([part[key] for part in parts])
        )
        for key in parts[0]
    }


def _team_summary(
    names: list[str], teams: list[list[int]], per_deal: np.ndarray, counters: list[dict]
) -> dict:
    rows, pairs = [], []
    for t, (name, team) in enumerate(zip(names, teams)):
        mean, ci = _mean_ci(per_deal[:, t])
        c = counters[t]
        rows.append({
            "name": name, "positions": team, "mean_points": mean, "ci95": ci,
            "win_rate": c["wins"] / c["games"] if c["games"] else None, "games": c["games"],
        })  # fmt: skip
    for a, b in combinations(range(len(teams)), 2):
        mean, ci = _mean_ci(per_deal[:, a] - per_deal[:, b])
        pairs.append({"a": names[a], "b": names[b], "mean_diff": mean, "ci95": ci})
    return {"teams": rows, "team_pairs": pairs}


def _is_number(value: Any, negative: bool = False, whole: bool = False) -> bool:
    """A JSON number (not a bool) that is finite, an int when ``whole``, ``>= 0`` unless ``negative``."""
    if isinstance(value, bool) or not isinstance(value, int if whole else (int, float)):
        return False
    return math.isfinite(value) and (negative or value >= 0)


def _mean_ci(values: np.ndarray) -> tuple[float | None, float | None]:
    if len(values) == 0:
        return None, None
    mean = float(values.mean())
    ci = float(Z95 * values.std(ddof=1) / math.sqrt(len(values))) if len(values) > 1 else math.inf
    return round(mean, 4), round(ci, 4)


# ---------------------------------------------------------------------- output
def format_report(report: dict[str, Any]) -> str:
    """The per-agent and per-pair tables as text."""
    higher = report.get("better") == "higher"  # Smear: points are good
    w = max([28, *(len(row["name"]) + 2 for row in report["agents"])])  # the agent column fits
    pw = max([45, *(len(f"{p['a']} - {p['b']}") + 2 for p in report["pairs"] + report.get("team_pairs", []))])
    lines = [
        f"{report['preset']} ({report['num_players']} players): {report['deals']} duplicate deals "
        f"x {len(report['rotations'])} seatings, {report['elapsed_s']:.0f} s "
        f"({'higher' if higher else 'lower'} points are better)",
        f"{'agent':<{w}} {'mean points':>12} {'95% CI':>8} {'win rate':>9} {'games':>6} "
        f"{'moons shot':>10} {'allowed':>8} {'illegal':>7}",
    ]
    for row in sorted(
        report["agents"],
        key=lambda r: (-1 if higher else 1) * (r["mean_points"] if r["mean_points"] is not None else 0),
    ):
        win = f"{100 * row['win_rate']:.1f}%" if row["win_rate"] is not None else "-"
        lines.append(
            f"{row['name']:<{w}} {_num(row['mean_points']):>12} {'±' + _num(row['ci95']):>8} {win:>9} "
            f"{row['games']:>6} {row['moons_shot']:>10} {row['moons_allowed']:>8} {row['illegal']:>7}"
        )
    if report["pairs"]:
        lines.append("")
        lines.append(f"{'pair (a - b)':<{pw}} {'mean diff':>10} {'95% CI':>8}")
        for pair in report["pairs"]:
            label = f"{pair['a']} - {pair['b']}"
            lines.append(f"{label:<{pw}} {_num(pair['mean_diff']):>10} {'±' + _num(pair['ci95']):>8}")
    if report.get("teams"):  # reports of tournaments without teams (and older files) have none
        lines.append("")
        lines.append(
            f"{'team (seating positions)':<36} {'team points':>12} {'95% CI':>8} {'win rate':>9} {'games':>6}"
        )
        for row in report["teams"]:
            win = f"{100 * row['win_rate']:.1f}%" if row["win_rate"] is not None else "-"
            label = f"{row['name']} {tuple(row['positions'])}"
            ci = "±" + _num(row["ci95"])
            lines.append(f"{label:<36} {_num(row['mean_points']):>12} {ci:>8} {win:>9} {row['games']:>6}")
        for pair in report.get("team_pairs", []):
            label = f"{pair['a']} - {pair['b']}"
            lines.append(f"{label:<{pw}} {_num(pair['mean_diff']):>10} {'±' + _num(pair['ci95']):>8}")
    if report.get("contracts"):
        lines.append("")
        lines.append("contracts made by bid level (made / pitched):")
        for row in report["contracts"]:
            levels = "  ".join(f"{level}: {v['made']}/{v['pitched']}" for level, v in row["by_bid"].items())
            lines.append(f"  {row['name']:<26} {levels or '-'}")
    if report.get("slam"):
        lines.append("")
        lines.append(f"{'slam pairs: agent':<28} {'slam bids':>10} {'paired':>8} {'mean points paired':>19}")
        for row in report["slam"]:
            paired = _num(row["mean_paired_points"])
            lines.append(f"{row['name']:<28} {row['bids']:>10} {row['paired']:>8} {paired:>19}")
    return "\n".join(lines)


def _num(value: float | None) -> str:
    return "-" if value is None else f"{value:.3f}"


def write_csv(report: dict[str, Any], path: str | Path) -> None:
    """Per-agent rows to ``path`` and per-pair rows to ``<stem>_pairs.csv`` beside it."""
    import csv

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    columns = [
        "name",
        "mean_points",
        "ci95",
        "win_rate",
        "games",
        "moons_shot",
        "moons_allowed",
        "seat_deals",
        "illegal",
    ]
    with path.open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=columns)
        writer.writeheader()
        writer.writerows({k: row[k] for k in columns} for row in report["agents"])
    with path.with_name(path.stem + "_pairs.csv").open("w", newline="") as f:
        writer = csv.DictWriter(f, fieldnames=["a", "b", "mean_diff", "ci95"])
        writer.writeheader()
        writer.writerows(report["pairs"])
    if report.get("teams"):  # team tournaments: one row per team in <stem>_teams.csv
        with path.with_name(path.stem + "_teams.csv").open("w", newline="") as f:
            columns = ["name", "positions", "mean_points", "ci95", "win_rate", "games"]
            writer = csv.DictWriter(f, fieldnames=columns)
            writer.writeheader()
            for row in report["teams"]:
                writer.writerow({**row, "positions": "+".join(map(str, row["positions"]))})


class _NoBar:
    """What :func:`progress_bar` returns without tqdm: it counts nothing and prints nothing."""

    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


def progress_bar(**kwargs: Any) -> Any:
    """A tqdm progress bar, or one that prints nothing where tqdm is not installed (it comes
    with the ``training`` extra; a package-only install plays without a bar)."""
    try:
        from tqdm import tqdm
    except ModuleNotFoundError:
        return _NoBar()
    return tqdm(**kwargs)


def write_png(report: dict[str, Any], path: str | Path) -> None:
    """A bar chart of mean deal points with 95% error bars (needs matplotlib: ``ModuleNotFoundError``
    with the install line where it is missing)."""
    try:
        import matplotlib
    except ModuleNotFoundError:
        raise ModuleNotFoundError(
            "the chart needs matplotlib: pip install 'hearts-env[training]' (or matplotlib)"
        ) from None

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = sorted(report["agents"], key=lambda r: r["mean_points"])
    fig, ax = plt.subplots(figsize=(7, 1.2 + 0.6 * len(rows)))
    ax.barh([r["name"] for r in rows], [r["mean_points"] for r in rows], xerr=[r["ci95"] for r in rows],
            capsize=4, color="#4c72b0")  # fmt: skip
    ax.invert_yaxis()
    better = report.get("better", "lower")
    ax.set_xlabel(f"mean deal points ({better} is better), 95% CI")
    ax.set_title(f"{report['preset']}, {report['num_players']} players: {report['deals']} duplicate deals")
    fig.tight_layout()
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=120)
    plt.close(fig)
