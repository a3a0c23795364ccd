"""``pimc``: perfect-information Monte Carlo search on the batched engine (every family).

At each card play with a choice, the agent draws ``worlds`` deals of the hidden cards uniformly
among those consistent with what its seat has seen (:func:`hearts_env.worlds.sample_worlds`:
its hand, its passes, every card played and by whom, the voids shown), starts the engine from
each world (:func:`hearts_env.worlds.world_positions`), plays every legal card in every world,
plays the deal out with a rollout player (the family's heuristic, ``strategy`` or ``smear``, in
every seat by default, or a bit-mask player of :mod:`hearts_env.rollouts`) and chooses the card
with the best mean reward, the family's (own points, or the team's in partnership games; the
moon and the variant's scoring are the engine's). All worlds × cards of all the games of one
call form one engine batch.

* ``worlds`` (default 16): worlds per decision;
* ``rollout`` (default: the family's heuristic, ``"strategy"`` or ``"smear"``): a player of
  :mod:`hearts_env.rollouts` (``"random"``, ``"lowest"``, ``"ducker"``, ``"fast"``: bit-mask
  players of the Hearts family, the fastest; in Smear ``random`` and ``lowest`` are the agents
  of those names), or any agent spec, which then plays every seat of the rollouts from its
  observations (``"strategy"``, or a checkpoint as ``"ppo;checkpoint=path"``: ``;`` for the
  spec's ``:`` inside a spec);
* ``fallback`` (default: the family's heuristic): the agent for the decisions that are not
  card plays (passing, bids, declarations, the named suit, the moon choice; Smear's bids,
  trumps and discards).

Randomness comes from the ``rng`` given to :meth:`act` (a tournament's seeded generator), so a
tournament with ``pimc`` replays exactly. ``last_ms_per_decision`` and ``decisions`` /
``seconds`` record its time.

Covered: every preset and player count, Cancellation Hearts (two decks) and Smear included
(Smear's worlds: :mod:`hearts_env.smear_worlds`). What the observation does not record (who
took which card, the kitty's taker, the tricks cancelled, which unseen cards Smear's players
threw away) is filled in consistently but not exactly (see
:func:`hearts_env.worlds.world_positions`, :func:`hearts_env.smear_worlds.world_positions`).
"""

from __future__ import annotations

import time
from typing import ClassVar

import numpy as np

from agents.base import Agent, Observation
from hearts_env.families import family
from hearts_env.rollouts import ROLLOUTS
from hearts_env.rules import Rules
from hearts_env.smear_worlds import world_positions as smear_world_positions
from hearts_env.table import Table
from hearts_env.worlds import sample_worlds, world_positions


class PIMCAgent(Agent):
    """Perfect-information Monte Carlo over sampled worlds (see the module docstring)."""

    name = "pimc"
    games: ClassVar[tuple[str, ...]] = ("hearts", "smear")

    def __init__(
        self, rules: Rules, *, worlds: int = 16, rollout: str | None = None, fallback: str | None = None
    ) -> None:
        super().__init__(rules)
        if not isinstance(worlds, (int, np.integer)) or isinstance(worlds, bool) or worlds < 1:
            raise ValueError(f"pimc: worlds must be a positive int, got {worlds!r}")
        from agents import from_spec  # noqa: PLC0415  (agents imports this module lazily)

        heuristic = family(rules).agents.heuristic  # strategy, smear
        rollout = heuristic if rollout is None else rollout
        if not isinstance(rollout, str):
            raise ValueError(f"pimc: rollout must be a name or an agent spec, got {rollout!r}")
        smear = rules.game == "smear"
        if smear and rollout in ("ducker", "fast"):
            raise ValueError(
                f"pimc: rollout={rollout!r} is a Hearts-family player; Smear's rollouts are agents "
                "(smear, lowest, random, a checkpoint)"
            )
        self.worlds, self.rollout = int(worlds), rollout
        # A rollout outside the engine's own players is an agent (a spec: strategy, a checkpoint)
        # that plays every seat of the rollouts from their observations (Smear's always are).
        engine_player = rollout in ROLLOUTS and not smear
        self.rollout_agent = None if engine_player else from_spec(rollout.replace(";", ":"), rules)
        self.fallback = from_spec(heuristic if fallback is None else fallback, rules)
        self._positions = smear_world_positions if smear else world_positions
        self._tables: dict[int, Table] = {}
        self._playing = "phase" in self.layout.slices and "playing" in rules.phases
        self.decisions = 0
        self.seconds = 0.0
        self.last_ms_per_decision = 0.0

    def _table(self, size: int) -> Table:
        bucket = 1 << max(size - 1, 0).bit_length()
        if bucket not in self._tables:
            self._tables[bucket] = Table(self.rules, num_games=bucket)
        return self._tables[bucket]

    def act(self, obs: Observation, rng: np.random.Generator) -> np.ndarray:
        start = time.perf_counter()
        observation, mask = obs["observation"], obs["action_mask"]
        actions = self.fallback.act(obs, rng)
        phase = self.view(obs, "phase")
        playing = phase[:, self.rules.phases.index("playing")] > 0.5
        cards = mask[:, : self.rules.card_slots] > 0
        search = np.flatnonzero(playing & (cards.sum(axis=1) > 1))
        if len(search):
            actions[search] = self._search(observation[search], cards[search], rng)
        spent = time.perf_counter() - start
        self.decisions += len(observation)
        self.seconds += spent
        self.last_ms_per_decision = 1000 * spent / max(len(observation), 1)
        return actions

    def _search(self, observations: np.ndarray, legal: np.ndarray, rng: np.random.Generator) -> np.ndarray:
        w = self.worlds
        parts, moves = [], []
        choices = [np.flatnonzero(row) for row in legal]
        for i, row in enumerate(observations):
            drawn = sample_worlds(self.rules, row, w, rng)
            positions = self._positions(self.rules, row, drawn, rng)
            a = choices[i]
            parts.append(positions.take(np.repeat(np.arange(w), len(a))))
            moves.append(np.tile(a, w))
        batch = type(parts[0]).concat(parts)
        actions = np.concatenate(moves)
        n = len(actions)
        table = self._table(n)
        size = table.num_games
        if size > n:  # fill the bucket with copies of the first game
            pad = np.zeros(size - n, np.int64)
            batch = batch.concat([batch, batch.take(pad)])
            actions = np.concatenate([actions, actions[pad]])
        table.set_position(batch, check=False)
        result = table.step(actions)
        if self.rollout_agent is None:
            value = result.rewards[:, 0] + table.play_out(self.rollout, rng)[:, 0]
        else:
            value = result.rewards[:, 0] + self._agent_rollout(table, rng)
        value = value[:n]
        best = np.empty(len(observations), np.int64)
        offset = 0
        for i, a in enumerate(choices):
            k = w * len(a)
            means = value[offset : offset + k].reshape(w, len(a)).mean(axis=0)
            best[i] = a[int(np.argmax(means))]
            offset += k
        return best

    def _agent_rollout(self, table: Table, rng: np.random.Generator) -> np.ndarray:
        """Seat 0's reward of every game of ``table`` played to the end of the deal by the
        rollout agent in every seat."""
        value = np.zeros(table.num_games)
        actions = np.zeros(table.num_games, np.int64)
        while True:
            live = np.flatnonzero(~table.deal_over)
            if not len(live):
                return value
            obs = {"observation": table.observe()[live], "action_mask": table.action_mask()[live]}
            actions[live] = self.rollout_agent.act(obs, rng)
            value += table.step(actions).rewards[:, 0]
