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

Names: the record keys every agent by its whole spec (``config.agents``); the report, the
table, the CSV and the chart name it by its label (``label=``, else a short default such as
``ppo`` for ``ppo:checkpoint=...`` or ``MyAgent`` for ``my_agent.py:MyAgent``:
:func:`agents.labels`), and each agent row keeps the whole spec as ``spec``.

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
the groups are independent, and a pool of workers (:mod:`hearts_env.parallel`: processes on this
machine, or Ray actors) plays them apart (one code path, :class:`RoundPlayer`) with a report
identical to this process's for the same configuration.

Recorded deals: ``record_deals=N`` keeps the first N deals' plays in the report
(``recorded_deals``): each deal's cards as dealt, its dealer and pass, and for every seating the
game's totals before it, each decision's seat and action (with the options the agent weighed,
when it says: :meth:`agents.Agent.last_options`) and the deal points. ``hearts-env replay``
(:mod:`evaluation.replay`) replays one of them step by step and draws it. Recording draws no
random numbers: the results are the same with or without it.

Resuming: the JSON file is rewritten after every round and holds everything needed to go on; run
the same command again and it continues where it stopped (a different configuration refuses).
A file that is not such a record (empty, truncated, not JSON, edited by hand into an inconsistent
state) is refused with one ``ValueError`` naming it and what is wrong.

This module runs a tournament (:class:`TournamentConfig`, :class:`Tournament`, and
:class:`RoundPlayer`, which plays its rounds); the seating and its rotations are in
:mod:`evaluation.seating`, the resumable record in :mod:`evaluation.record`, the report's sections
and its text, CSV and chart in :mod:`evaluation.report`, and the progress bar in
:mod:`evaluation.progress`. Their public names are importable from here too.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from agents import Agent, family_defaults, parse_spec, refusal, weights_digest
from agents import labels as agent_labels
from agents.base import random_legal
from agents.specs import absolute as _absolute
from evaluation.flags import build_agent, non_negative_int, positive_int, signals_held
from evaluation.progress import DealCount, bar_text, progress_bar, short_name
from evaluation.provenance import run_record
from evaluation.record import RecordShape, empty_record, load_record, save_record
from evaluation.report import (
    Z95,
    agent_summary,
    contract_summary,
    format_report,
    move_times,
    slam_summary,
    team_summary,
    write_csv,
    write_png,
)
from evaluation.seating import rotation_offsets, rotations, seating, team_positions
from hearts_env.core.rules import PASS_DIRECTIONS, Rules
from hearts_env.games import family
from hearts_env.games.hearts.stock import stock_order
from hearts_env.parallel import Pool
from hearts_env.presets import make_rules
from hearts_env.table import Table

__all__ = [
    "Z95",
    "RoundPlayer",
    "Tournament",
    "TournamentConfig",
    "format_report",
    "merge_rounds",
    "progress_bar",
    "rotation_offsets",
    "rotations",
    "seating",
    "short_name",
    "team_positions",
    "write_csv",
    "write_png",
]


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
    """Agent specs (:mod:`agents.specs`: a registered name, ``module:Class`` or
    ``path/to/file.py:Class``, with ``key=value`` parameters and ``label=``), seated in this order
    and repeated to fill the table; a file's path is made absolute (Ray workers and resumes from
    another directory find it). None: the game family's (``agents.family_defaults``: ``strategy,
    ducker, lowest, random`` for the Hearts family, ``smear, lowest, random`` for Smear)."""
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
    record_deals: int = 0
    """The first deals (by deal number: round by round, table by table) whose plays the report
    keeps as ``recorded_deals``, for ``hearts-env replay``; 0: none."""

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
        self.agents = [_absolute(spec) for spec in self.agents]
        for spec in self.agents:
            parse_spec(spec)
        agent_labels(self.agents)  # two specs given one label= : refused here
        self.deals = positive_int.check("deals", self.deals)
        self.tables = positive_int.check("tables", self.tables)
        self.seed = non_negative_int.check("seed", self.seed)
        self.streams = positive_int.check("streams", self.streams)
        self.record_deals = non_negative_int.check("record_deals", self.record_deals)
        if self.record_deals > self.deals:
            raise ValueError(
                f"record_deals={self.record_deals} is more than the {self.deals} deals this tournament "
                "plays: record at most --deals"
            )
        if self.streams > self.table_count:
            raise ValueError(
                f"streams={self.streams} is more than the {self.table_count} tables this tournament "
                "plays: each stream needs at least one table (use --streams <= --tables)"
            )
        return self

    def record(self) -> dict[str, Any]:
        """The configuration as the JSON file keeps it: the agents by their whole specs,
        ``streams`` only when not 1 and ``record_deals`` only when not 0 (so files written
        before they existed still resume)."""
        out = asdict(self)
        if out["streams"] == 1:
            del out["streams"]
        if out["record_deals"] == 0:
            del out["record_deals"]
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


class Tournament:
    """Runs a :class:`TournamentConfig`, saving to ``json_path`` after each round if given.
    ``labels``: names of agent specs in the report, the table, the CSV, the chart and the progress
    bar, over the specs' own (``label=``, else :func:`agents.labels`'s short default). ``hint``:
    how to shorten a slow run, ending the line that announces its estimate (the command's flags,
    e.g. ``--deals or --minutes to shorten``)."""

    def __init__(
        self,
        config: TournamentConfig,
        json_path: str | Path | None = None,
        progress: bool = True,
        labels: Mapping[str, str] | None = None,
        command: str | None = None,
        hint: str = "",
    ) -> None:
        self.config = config.validate()
        self.json_path = Path(json_path) if json_path else None
        self.progress = progress
        self.labels = {_absolute(spec): label for spec, label in (labels or {}).items()}
        self.command = command
        self.hint = hint
        self.runs: list[dict[str, Any]] = []
        """Provenance of every run that wrote the record (:mod:`evaluation.provenance`)."""
        self.rules = config.rules()
        if self.rules.duplicate_problem:  # the replays of a deal would not be the same deal
            raise ValueError(self.rules.duplicate_problem)
        p = self.rules.num_players
        self.names = list(dict.fromkeys(config.agents))  # unique specs, first-seen order
        own = agent_labels(self.names)
        self.agent_labels = [self.labels.get(spec, label) for spec, label in zip(self.names, own)]
        """The names of :attr:`names` in the report (the record keeps the specs)."""
        label_of = dict(zip(self.names, self.agent_labels))
        for spec in self.names:  # an agent that cannot play these rules: one line, before anything runs
            reason = refusal(parse_spec(spec)[0], self.rules)
            if reason:
                raise ValueError(reason)
        self.weights = {spec: d for spec in self.names if (d := weights_digest(spec, self.rules))}
        """Agent spec -> digest of the files it plays (:func:`agents.weights_digest`; trained
        policies only): the record keeps it, and a resume with other weights is refused."""
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
        self.team_names = ["+".join(label_of[seats[i]] for i in team) for team in self.teams]
        self.team_at = team_positions(self.rules.teams, offsets, p) if self.teams else None
        self.slam = self.rules.bid_partnership
        # Stream s plays the tables stream_tables[s] (contiguous), on its own agents' generator.
        self.stream_tables = [
            range(int(part[0]), int(part[-1]) + 1)
            for part in np.array_split(np.arange(self.tables), min(config.streams, self.tables))
        ]
        self.table = Table(self.rules, self.batch)
        reported = self.table.game_info(np.arange(0))  # the infos the engine gives at a deal's end
        self.contracts = "pitcher" in reported
        """Whether deals are played for a contract (the engine names the pitcher, his bid and
        whether he made it): the report counts them by bid level."""
        self.named_winner = "winner" in reported
        """Whether the engine names the side that wins a game (otherwise the lowest total wins)."""
        levels = self.table.bid_values if self.contracts else None
        self.shape = RecordShape(
            names=self.names,
            seats_held=[int((self.agent_of == a).sum()) for a in range(len(self.names))],
            team_names=self.team_names,
            rounds=config.rounds,
            tables=self.tables,
            batch=self.batch,
            num_players=p,
            slam=self.slam,
            bid_levels=None if levels is None else frozenset(str(v) for v in levels if v > 0),
        )
        """What the record holds (:mod:`evaluation.record`)."""
        saved = None
        if self.json_path is not None:
            saved = load_record(
                self.json_path, self.shape, config.record(), self.rules, self.weights
            )
        self.recorded: list[dict[str, Any]] = []
        """The deals recorded so far (``config.record_deals``), as the report's ``recorded_deals``."""
        if saved is not None:
            self.record, self.runs = saved
            self.recorded = self._saved_deals()
        else:
            self.record = empty_record(self.shape)
        self.saved_rounds = self.record["rounds_done"] if saved is not None else 0
        """Rounds the JSON file holds now (0 without one): what a stopped run leaves to resume from."""

    def _saved_deals(self) -> list[dict[str, Any]]:
        """The recorded deals of the resumed JSON file: as many as its rounds hold (they are
        checked in full when replayed, :mod:`evaluation.replay`)."""
        wanted = min(self.config.record_deals, self.record["rounds_done"] * self.tables)
        if not wanted:
            return []
        assert self.json_path is not None  # a saved record was read from it
        deals = json.loads(self.json_path.read_text(encoding="utf-8")).get("recorded_deals")
        if not isinstance(deals, list) or len(deals) != wanted:
            got = len(deals) if isinstance(deals, list) else "none"
            raise ValueError(
                f"{self.json_path} is not a usable tournament record: it holds {got} recorded deals "
                f"where its {self.record['rounds_done']} rounds hold {wanted}; delete it (or choose "
                "another --json) to start this tournament afresh"
            )
        return deals

    def recorded_tables(self, k: int) -> range:
        """The tables whose deal of round ``k`` is recorded (``config.record_deals``)."""
        return range(min(self.tables, max(0, self.config.record_deals - k * self.tables)))

    @property
    def complete(self) -> bool:
        """Whether every round has been played (a run then plays nothing and reports the record)."""
        return self.record["rounds_done"] >= self.config.rounds

    def _save(self) -> None:
        if self.json_path is not None:
            with signals_held():  # a stop then says exactly what the file holds
                save_record(self.json_path, self.report())
                self.saved_rounds = self.record["rounds_done"]

    # ------------------------------------------------------------------ playing
    def run(
        self,
        max_rounds: int | None = None,
        time_limit_s: float | None = None,
        pool: Pool | None = None,
        bar: Any = None,
    ) -> dict[str, Any]:
        """Play the remaining rounds and return the report (see :meth:`report`).

        ``max_rounds``: play at most this many rounds now; ``time_limit_s``: start no new round
        after this many seconds. Either way the JSON file lets a later run go on. ``pool``: where
        the rounds are played (None: here, on one table), a :class:`hearts_env.parallel.Pool`
        (``make("processes", workers=4)``, ``make("ray", address="auto")``, ``make("serial")``)
        whose workers each play whole random streams (at most :attr:`TournamentConfig.streams`
        workers) while this process scores the rounds: the report is the same as here.
        ``bar``: a progress bar to count this run's deals on, left open (a leaderboard's, over
        its cells); None: the tournament's own (:attr:`progress`), counted from the deals saved.

        The bar counts deals within a round too, with their rate and the time left
        (:class:`evaluation.progress.DealCount`), and a run estimated to take more than a minute
        says so in one line before it goes on (with :attr:`progress`).
        """
        rounds = self.config.rounds
        done = self.record["rounds_done"]
        if max_rounds is not None:
            rounds = min(rounds, done + max_rounds)
        todo = range(done, rounds)
        count = DealCount(
            self.tables, self._deal_steps(), len(todo) * self.tables, self.config.rounds * self.tables,
            self.agent_labels, announce=self.progress, hint=self.hint, limit_s=time_limit_s,
        )  # fmt: skip
        results = self._pooled_rounds(pool, todo) if pool is not None else self._local_rounds(todo, count)
        if len(todo):
            self.runs.append(run_record(self.command))
        began = time.perf_counter()
        own = bar is None
        if own:
            bar = progress_bar(
                total=self.config.rounds * self.tables, initial=done * self.tables, unit="deal",
                disable=not self.progress, desc=self._bar_text(),
            )  # fmt: skip
        else:
            bar.update(done * self.tables)
        count.start(bar)
        try:
            for k in todo:
                if time_limit_s is not None and time.perf_counter() - began > time_limit_s:
                    break
                start = time.perf_counter()
                info = next(results)
                self._score_round(info)
                self.record["rounds_done"] = k + 1
                self.record["elapsed_s"] += time.perf_counter() - start
                self._save()
                count.round_done(info.get("steps"), info["decisions"], info["act_s"])
        finally:
            results.close()
            if own:
                bar.close()
        return self.report()

    def _deal_steps(self) -> int:
        """The steps a deal is expected to take before one has been played: the cards dealt (each
        is played once; passes, bids and draws make a deal longer, so the bar waits at the round's
        end rather than running ahead)."""
        hands, _ = self.table.shuffled_hands(np.random.default_rng(0), 1)
        return sum(int(word).bit_count() for word in hands.ravel())

    def _bar_text(self) -> str:
        """``hearts: ppo (fresh) v strategy v random (points, lower is better)``."""
        labels = dict(zip(self.names, self.agent_labels))
        return bar_text(self.config.preset, self.names, labels, family(self.rules).better)

    def _local_rounds(self, todo: range, count: DealCount) -> Iterator[dict[str, np.ndarray]]:
        """The rounds ``todo`` played in this process, on :attr:`table` (every table), telling
        ``count`` each step. The agents are built now, not at the first round: one that cannot be
        built stops the run before it plays or writes anything."""
        player = RoundPlayer(self, range(self.tables), table=self.table) if len(todo) else None
        return (
            player.play(k, self.record["table_state"] if k > 0 else None, on_step=count.step)
            for k in todo
            if player
        )

    def _pooled_rounds(self, pool: Pool, todo: range) -> Iterator[dict[str, np.ndarray]]:
        """The rounds ``todo`` played by ``pool``'s workers, each a :class:`StreamPlayer` of
        whole streams, merged in table order; the next round is asked for while this one is
        scored. The agents are built here first: one that cannot be built fails in one line,
        before any worker starts."""
        if not len(todo):
            return
        for name in self.names:
            build_agent(name, self.rules)
        config = asdict(self.config)
        state = self.record["table_state"] if todo.start > 0 else None
        streams = self.stream_tables

        def shares(count: int) -> list[tuple[Any, ...]]:
            parts = np.array_split(np.arange(len(streams)), count)
            return [(config, streams[int(p[0])].start, streams[int(p[-1])].stop, state) for p in parts]

        workers = pool.start(StreamPlayer, shares, most=len(streams))
        owed: dict[int, Any] = {}
        try:
            for k in todo:
                for ahead in (k, k + 1):
                    if ahead in todo and ahead not in owed:
                        owed[ahead] = workers.send("play", ahead)
                yield merge_rounds(workers.receive(owed.pop(k)))
        finally:
            workers.close(at_once=bool(owed))  # stopped early: the round played ahead is not wanted

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
        times = self.record.setdefault(
            "move_time", {name: {"decisions": 0, "act_s": 0.0} for name in self.names}
        )
        for a, name in enumerate(self.names):  # like elapsed_s: kept, never compared
            times[name]["decisions"] += int(info["decisions"][a])
            times[name]["act_s"] = round(times[name]["act_s"] + float(info["act_s"][a]), 6)
        means = np.stack([(points * (self.agent_of == a)).sum(axis=(1, 2)) / (self.agent_of == a).sum()
                          for a in range(len(self.names))], axis=1)  # fmt: skip
        self.record["per_deal"].extend(means.round(6).tolist())
        self.recorded.extend(info.get("recorded", []))
        shooter = info["moon_shooter"]
        for row in np.flatnonzero(shooter >= 0):
            for seat in range(p):
                key = "moons_shot" if seat == shooter[row] else "moons_allowed"
                counters[self.row_agents[row, seat]][key] += 1
        team_at = None if self.team_at is None else np.tile(self.team_at, (self.tables, 1))  # (B, P)
        side_of = np.array(self.rules.team_of)
        for row in np.flatnonzero(info["game_over"] & self.named_winner):  # the engine names the winning side
            for seat in range(p):
                c = counters[self.row_agents[row, seat]]
                c["games"] += 1
                c["wins"] += float(side_of[seat] == info["winner"][row])
        for row in np.flatnonzero(info["game_over"] & (not self.named_winner)):
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
        if self.contracts:
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
            if self.named_winner:  # the winning side's seats hold one seating team
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
        """Each pitcher's contract (bid level, made or not), credited to his agent."""
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
    def report(self) -> dict[str, Any]:
        """The results so far: per agent, per pair, the configuration and the resume record."""
        per_deal = np.array(self.record["per_deal"], float).reshape(-1, len(self.names))
        extra: dict[str, Any] = {}
        if self.teams:
            per_team = np.array(self.record["team_per_deal"], float).reshape(-1, len(self.teams))
            extra.update(team_summary(self.team_names, self.teams, per_team, self.record["team_counters"]))
        label_of = dict(zip(self.names, self.agent_labels))
        if self.contracts:
            extra["contracts"] = contract_summary(self.record["smear_counters"], label_of)
        if self.slam:
            extra["slam"] = slam_summary(self.record["slam_counters"], label_of)
        return {
            "preset": self.config.preset,
            "num_players": self.rules.num_players,
            "deals": len(per_deal),
            "deals_planned": self.config.rounds * self.tables,
            "better": family(self.rules).better,
            **agent_summary(self.names, per_deal, self.record["counters"], self.agent_labels),
            "move_times": move_times(self.names, self.record.get("move_time", {}), self.agent_labels),
            "rotations": self.rotations,
            **extra,
            "elapsed_s": round(self.record["elapsed_s"], 2),
            "rules": self.rules.describe(),
            "config": self.config.record(),
            **({"weights": self.weights} if self.weights else {}),
            **({"recorded_deals": self.recorded} if self.config.record_deals else {}),
            "runs": self.runs,
            "progress": self.record,
        }


class RoundPlayer:
    """Plays rounds of a :class:`Tournament` on some of its tables and returns what happened,
    unscored (:meth:`Tournament._score_round` scores it): the one code path of a run in this
    process (every table) and of each worker of a pool (:class:`StreamPlayer`: whole streams).

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
        self.agents: list[Agent] = [build_agent(name, t.rules) for name in t.names]
        self.streams: list[tuple[int, slice]] = []  # (stream, its rows in self.table)
        for s, held in enumerate(t.stream_tables):
            lo, hi = max(held.start, tables.start), min(held.stop, tables.stop)
            if lo < hi and (lo, hi) != (held.start, held.stop):
                raise ValueError(f"tables {tables} split the stream of tables {held}")
            if lo < hi:
                self.streams.append((s, slice((lo - tables.start) * r, (hi - tables.start) * r)))

    def play(
        self,
        k: int,
        state: dict[str, Any] | None = None,
        on_step: Callable[[int, np.ndarray, np.ndarray], None] | None = None,
    ) -> dict[str, np.ndarray]:
        """Play round ``k`` (each table's next deal, in every seating) to its end; ``state``: the
        record's ``table_state`` (every table) to restore first (a resume). Returns the per-row
        arrays of :meth:`Table.game_info` with ``deal_index`` (and, Partnership C,
        ``slam_bidder`` / ``slam_partner``, -1 for none), ``illegal``, ``decisions`` and
        ``act_s``: per agent, ``steps``: the steps the round took, and ``recorded``: the
        round's recorded deals of these tables (a list, :meth:`Tournament.recorded_tables`).
        ``on_step(steps, decisions, act_s)`` is called after each step (the progress bar within
        a round)."""
        t, cfg, table = self.tournament, self.tournament.config, self.table
        p, n = t.rules.num_players, len(self.rows)
        local, mine_tables = np.arange(n), slice(self.tables.start, self.tables.stop)
        hands, kitty = table.shuffled_hands(np.random.default_rng([cfg.seed, k]), t.tables)
        repeat = len(t.rotations)
        if state is not None:
            table.restore_games(
                np.asarray(state["totals"], np.int64)[self.rows],
                np.asarray(state["deal_index"], np.int64)[self.rows],
                np.asarray(state["game_over"], bool)[self.rows],
            )
        # Domino Hearts: the stock's draw order is part of the deal, the same in every seating.
        order = None
        if t.rules.stock_size:
            order = stock_order(kitty, t.rules.stock_size, np.random.default_rng([cfg.seed, k, 2]))
            order = np.repeat(order[mine_tables], repeat, axis=0)
        kept = [tb for tb in t.recorded_tables(k) if tb in self.tables]
        recorder = _DealRecorder(self, k, kept, hands, kitty, order) if kept else None
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
        decisions, act_s = np.zeros(len(t.names), np.int64), np.zeros(len(t.names))
        over = np.zeros(n, bool)  # games whose deal has ended (they wait for the rest)
        steps = 0
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
                        began = time.perf_counter()
                        actions[mine] = agent.act(batch, rng)
                        act_s[a] += time.perf_counter() - began
                        decisions[a] += mine.size
                        if recorder is not None:
                            recorder.weighed(agent, mine)
                act, legal = actions[rows], mask[rows]
                ok = (act >= 0) & (act < legal.shape[1])
                ok &= legal[np.arange(len(act)), np.clip(act, 0, legal.shape[1] - 1)] > 0
                bad = rows.start + np.flatnonzero(~ok & ~over[rows])
                if bad.size:
                    np.add.at(illegal, who[bad], 1)
                    actions[bad] = random_legal(mask[bad], rng)
            if recorder is not None:
                recorder.step(seat, actions, over)
            over |= table.step(actions).deal_ended
            steps += 1
            if on_step is not None:
                on_step(steps, decisions, act_s)
        info = table.game_info(local)
        info["deal_index"] = np.array(table.deal_index)
        if t.slam:
            info.update(self._slam_pairs())
        info["illegal"] = illegal
        info["decisions"], info["act_s"] = decisions, act_s
        info["steps"] = np.array(steps)
        info["recorded"] = [] if recorder is None else recorder.deals(table)
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


class _DealRecorder:
    """The plays of a round's recorded deals (:attr:`TournamentConfig.record_deals`) on a
    :class:`RoundPlayer`'s table: made before the cards are dealt (the games' state before the
    deal), told each step, read at the round's end (:meth:`deals`)."""

    def __init__(
        self,
        player: RoundPlayer,
        k: int,
        kept: list[int],
        hands: np.ndarray,
        kitty: np.ndarray,
        order: np.ndarray | None,
    ) -> None:
        t, table = player.tournament, player.table
        r, p = len(t.rotations), t.rules.num_players
        self.kept = kept
        # rows[i]: the table's rows of deal kept[i], one per rotation.
        self.rows = np.array([np.arange(r) + (tb - player.tables.start) * r for tb in kept])
        self.steps = {int(row): [] for row in self.rows.ravel()}
        self.options: dict[int, list[Any]] = {row: [] for row in self.steps}
        self.weighed_now: dict[int, list[list[float]]] = {}
        first = player.tables.start
        self.head = [
            {
                "deal": k * t.tables + tb,
                "dealer": k % p,
                "pass_direction": t.rules.pass_direction(k),
                "new_game": k == 0,
                "hands": hands[tb].tolist(),
                "kitty": kitty[tb].tolist(),
                "stock": None if order is None else order[(tb - first) * r].tolist(),
            }
            for tb in kept
        ]
        self.start = {
            row: {
                "totals": table.totals[row].tolist(),
                "deal_index": int(table.deal_index[row]),
                "game_over": bool(table.game_over[row]),
            }
            for row in self.steps
        }
        self.agents = {row: player.row_agents[row].tolist() for row in self.steps}
        # A duck-typed agent (no Agent subclass) says nothing of its options.
        kinds = [getattr(agent, "options_kind", "") for agent in player.agents]
        self.kinds = {row: [kinds[a] for a in self.agents[row]] for row in self.steps}

    def weighed(self, agent: Agent, rows: np.ndarray) -> None:
        """After ``agent`` acted for ``rows``: the options it weighed in the recorded ones."""
        recorded = [(j, int(row)) for j, row in enumerate(rows) if int(row) in self.steps]
        if not recorded:
            return
        last_options = getattr(agent, "last_options", None)
        options = None if last_options is None else last_options()
        if options is None:
            return
        for j, row in recorded:
            legal = np.flatnonzero(np.isfinite(options[j]))
            if legal.size:
                self.weighed_now[row] = [[int(a), round(float(options[j, a]), 6)] for a in legal]

    def step(self, seat: np.ndarray, actions: np.ndarray, over: np.ndarray) -> None:
        """The step about to be played: each live recorded row's seat and action (after an
        illegal one was replaced), with its options."""
        for row in self.steps:
            if not over[row]:
                self.steps[row].append([int(seat[row]), int(actions[row])])
                self.options[row].append(self.weighed_now.get(row))
        self.weighed_now = {}

    def deals(self, table: Table) -> list[dict[str, Any]]:
        """The recorded deals, each with every seating's plays and deal points (at the round's end)."""
        return [
            {
                **head,
                "seatings": [
                    {
                        "agents": self.agents[row],
                        "start": self.start[row],
                        "steps": self.steps[row],
                        "options": self.options[row],
                        "option_kinds": self.kinds[row],
                        "deal_points": table.deal_points[row].tolist(),
                    }
                    for row in map(int, rows)
                ],
            }
            for head, rows in zip(self.head, self.rows)
        ]


class StreamPlayer:
    """A pool worker's share of a tournament (:meth:`Tournament.run` with ``pool``): the rounds
    of tables ``start:stop`` (whole streams). ``config``: the :class:`TournamentConfig` as a
    dict; ``state``: the record's ``table_state`` to resume from (None: the tournament starts
    here)."""

    def __init__(self, config: dict[str, Any], start: int, stop: int, state: dict | None) -> None:
        tournament = Tournament(TournamentConfig(**config), progress=False)
        self.player = RoundPlayer(tournament, range(start, stop))
        self.state = state

    def play(self, k: int) -> dict[str, np.ndarray]:
        """Round ``k`` of these tables (:meth:`RoundPlayer.play`)."""
        state, self.state = self.state, None  # restored once: the table carries on from there
        return self.player.play(k, state)


_SUMMED = ("illegal", "decisions", "act_s")
"""The per-agent entries of a round's results (summed over tables), not per-row arrays."""
_LONGEST = ("steps",)
"""The entries of a round's results that hold for the whole round: the longest part's."""
_LISTS = ("recorded",)
"""The entries of a round's results that are lists, joined in table order."""


def merge_rounds(parts: Sequence[dict[str, np.ndarray]]) -> dict[str, np.ndarray]:
    """One round's results of every table from :meth:`RoundPlayer.play`'s results of
    consecutive tables, in table order: rows concatenated, the per-agent counts summed, the
    round's steps the most any part took."""
    merged: dict[str, np.ndarray] = {}
    for key in parts[0]:
        values = [part[key] for part in parts]
        if key in _SUMMED:
            merged[key] = np.sum(values, axis=0)
        elif key in _LONGEST:
            merged[key] = np.max(values)
        elif key in _LISTS:
            merged[key] = [item for value in values for item in value]
        else:
            merged[key] = np.concatenate(values)
    return merged
