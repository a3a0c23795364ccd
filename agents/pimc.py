"""``pimc``: perfect-information Monte Carlo search on the batched engine (every family).

At each card play with a choice (and each bid, below), the agent draws ``worlds`` deals of the
hidden cards uniformly among those consistent with what its seat has seen
(:func:`hearts_env.worlds.sample_worlds`: its hand, its passes, every card played and by whom,
the voids shown), starts the engine from each world (:func:`hearts_env.worlds.world_positions`),
plays every legal card in every world, plays the deal out with a rollout player in every seat
(by default the PPO specialist shipped for the configuration, else the family's heuristic,
``strategy`` or ``smear``; or a bit-mask player of :mod:`hearts_env.games.hearts.rollouts`) and chooses the
card with the best mean reward, the family's (own points, or the team's in partnership games;
the moon and the variant's scoring are the engine's), keeping the fallback's card unless
another's gain is clear (``margin``). All worlds × cards of all the games of one call form one
engine batch.

* ``worlds`` (default 16): worlds per decision;
* ``rollout`` (default ``"best"``): a player of :mod:`hearts_env.games.hearts.rollouts` (``"random"``,
  ``"lowest"``, ``"ducker"``, ``"fast"``: bit-mask players of the Hearts family, the fastest; in
  Smear ``random`` and ``lowest`` are the agents of those names), or any agent spec, which then
  plays every seat of the rollouts from its observations (``"strategy"``, or a checkpoint as
  ``"ppo;checkpoint=path"``: ``;`` for the spec's ``:`` inside a spec). Two names depend on the
  rules: ``"heuristic"`` is the family's heuristic (``strategy`` or ``smear``), and ``"best"`` is
  the PPO specialist shipped for this preset and player count where one ships (``hearts`` 4,
  ``black_maria`` 3, ``smear_partnership`` 4: ``ppo:network=specialist``) and the heuristic
  elsewhere, or where torch is not installed (with a warning). :attr:`PIMCAgent.rollout` and
  :attr:`PIMCAgent.fallback_spec` say which plays;
* ``bids`` (default true): search the bids made before any card has moved (Smear's bids, the
  auction of Auction Hearts): in each of ``bid_worlds`` (default ``4 * worlds``) sampled deals,
  dealt afresh (:meth:`hearts_env.Table.deal`), the bids so far are made again by the seats that
  made them, and every legal bid is played out by the rollout agent (an agent rollout only: the
  engine's bit-mask players bid at random). The fallback's bid stands unless another's mean gain
  over it, world by world, exceeds one standard error. A world that does not show the observer
  his hand, the bids and his legal actions leaves the bid to ``fallback``; ``bids_searched``
  counts the searched bids, ``bids_changed`` those where the search overruled the fallback;
* ``margin`` (default 1): where above 0, a card where the fallback's card is legal is the
  fallback's unless the best card's mean gain over it, world by world, exceeds ``margin``
  standard errors of that gain (the bids' rule, for the play; a gain the same in every world
  is clear); 0 takes the best mean, ``inf`` always keeps the fallback's card;
* ``fallback`` (default ``"best"``, read as for ``rollout``): the agent for the other decisions (passing,
  declarations, the named suit, the moon choice; Smear's trumps and discards), and for the
  bids where ``bids`` is false;
* ``memory_gb`` (default :data:`MEMORY_LIMIT_GB`, 4): the memory one engine batch of the search
  may take. A search batch costs about :data:`BYTES_PER_GAME` (32 KiB) a game, worlds × legal
  choices games, the table rounded up to a power of two (:func:`search_bytes`). Settings whose
  one decision would exceed it (``worlds`` × the hand size, ``bid_worlds`` × the decisions) are
  refused when the agent is built, before anything is allocated; an ``act`` whose rows together
  would exceed it searches them in groups that fit, one engine batch each;
* ``horizon`` (default None: to the end of the deal): where set (an int of at least 1), a card
  play's rollouts stop when the searching seat is to act for the ``horizon``-th time after the
  searched card, and the rollout network's value head stands for the rest of the deal (its
  estimate of that seat's reward from there, :meth:`agents.ppo.PPOAgent.act_and_value`); a deal
  that ends sooner pays what it pays. The rollout must then be a PPO network (``best`` where a
  specialist ships, the universal network or a checkpoint). The whole search, bids included, then
  counts in the reward the network was trained on (:attr:`agents.ppo.PPOAgent.value_reward`,
  ``zero_sum``: own points against the others' mean) rather than the table's ``points``, so that
  the estimate and the played-out rewards add up; ``last_options`` reports those values;
* ``release`` (default None: today's): ``best`` plays the networks of that release
  (:mod:`agents.releases`); the spec ``pimc@2026-12`` is that release's whole setting.

Randomness comes from the ``rng`` given to :meth:`act` (a tournament's seeded generator), so a
tournament with ``pimc`` replays exactly. ``last_ms_per_decision`` and ``decisions`` /
``seconds`` record its time.

Covered: every preset and player count, Cancellation Hearts (two decks) and Smear included
(Smear's worlds: :mod:`hearts_env.games.smear.worlds`). What the observation does not record (who
took which card, the kitty's taker, the tricks cancelled, which unseen cards Smear's players
threw away) is filled in consistently but not exactly (see
:func:`hearts_env.worlds.world_positions`, :func:`hearts_env.games.smear.worlds.world_positions`).
"""

from __future__ import annotations

import importlib.util
import time
import warnings
from pathlib import Path
from typing import Annotated, Any, ClassVar

import numpy as np

from agents.base import Agent, Observation
from agents.defaults import family_defaults
from agents.releases import Release
from agents.releases import release as agent_release
from agents.shipped import shipped_path
from hearts_env.core.rules import Rules
from hearts_env.games import FAMILIES, family
from hearts_env.games.hearts.rollouts import ROLLOUTS
from hearts_env.table import Table
from hearts_env.worlds import sample_worlds

PlayerSpec = Annotated[str, "a name or an agent spec"]
"""A rollout or fallback player: ``best``, ``heuristic``, a bit-mask player or an agent spec."""

MEMORY_LIMIT_GB = 4.0
"""The default ``memory_gb``: what one engine batch of a search may take, in GiB."""

BYTES_PER_GAME = 32 * 1024
"""The memory one game of a search batch takes at its peak, an upper estimate: measured with
``tracemalloc`` over one ``act`` (the sampled worlds, their positions, the table, the rollout
agent's observations) at 4.5 to 16.5 KiB a game of the rounded-up table (standard and
Cancellation Hearts, Auction Hearts and Smear, engine and ``strategy``/``smear`` rollouts),
doubled for what ``tracemalloc`` does not see (a PPO rollout's tensors)."""


def search_bytes(games: int) -> int:
    """The estimated peak memory of one search batch of ``games`` games (worlds × legal choices):
    its table is rounded up to a power of two, as :meth:`PIMCAgent._table` makes it."""
    return BYTES_PER_GAME * (1 << max(int(games) - 1, 0).bit_length())


SPECIALIST = "ppo;network=specialist"
"""The rollout and fallback ``best`` plays where a specialist ships (``;`` for ``:`` in a spec)."""


def resolve_player(rules: Rules, name: str, what: str, release: Release | None = None) -> str:
    """``name`` with the rule-dependent names read: ``"heuristic"`` -> the family's heuristic,
    ``"best"`` -> :data:`SPECIALIST` where a PPO specialist ships for ``rules``' preset and
    player count and torch imports, else the heuristic (a warning when only torch is missing);
    with a ``release``, that release's specialist (``ppo;network=specialist;release=…``) where it
    has one. Any other name is returned as given; ``what`` names the parameter in the error."""
    if not isinstance(name, str) or not name:
        raise ValueError(f"pimc: {what} must be a name or an agent spec, got {name!r}")
    heuristic = family_defaults(rules.game).heuristic  # strategy, smear
    if name == "heuristic":
        return heuristic
    if name != "best":
        return name
    stem = f"{rules.preset}-{rules.num_players}p"
    if release is None:
        ships = shipped_path(rules.preset, rules.num_players).exists()
    else:
        ships = stem in release.files
    if not ships:
        return heuristic
    if importlib.util.find_spec("torch") is not None:
        return SPECIALIST if release is None else f"{SPECIALIST};release={release.name}"
    warnings.warn(
        f"pimc: a PPO specialist ships for {rules.preset} with {rules.num_players} players, but "
        f'torch is not installed: the {what} is {heuristic!r} (pip install -e ".[training]" to '
        "play the default setting)",
        stacklevel=3,
    )
    return heuristic


def _refuse_engine_player(name: str, rules: Rules) -> None:
    """``ValueError`` unless an agent named ``name`` plays ``rules``: the name of a bit-mask
    player that ``rules``' engine does not play (:attr:`hearts_env.core.family.Family.rollouts`) rolls
    out as that agent, where there is one (``random``, ``lowest``)."""
    from agents import names, refusal  # noqa: PLC0415  (agents imports this module lazily)

    why = refusal(name, rules) if name in names() else f"no agent is named {name!r}"
    if why is None:
        return
    players = " or ".join(record.title for record in FAMILIES.values() if name in record.rollouts)
    heuristic = family_defaults(rules.game).heuristic
    raise ValueError(
        f"pimc with rollout={name!r} cannot play {rules.preset}: {name!r} is a {players}-family player, "
        f"not one of the {family(rules).title} engine's, and {why}: roll out with an agent ({heuristic}, "
        "lowest, random, a checkpoint)"
    )


class PIMCAgent(Agent):
    """Perfect-information Monte Carlo over sampled worlds (see the module docstring)."""

    name = "pimc"
    games: ClassVar[tuple[str, ...]] = ("hearts", "smear")
    options_kind = "value"
    _values: np.ndarray | None = None  # the last act's mean value of each searched action

    def __init__(
        self,
        rules: Rules,
        *,
        worlds: int = 16,
        rollout: PlayerSpec = "best",
        fallback: PlayerSpec = "best",
        bids: bool = True,
        bid_worlds: int | None = None,
        margin: float = 1.0,
        memory_gb: float = MEMORY_LIMIT_GB,
        horizon: int | None = None,
        release: str | None = None,
    ) -> None:
        super().__init__(rules)
        frozen = None if release is None else agent_release(release)
        self.release = release
        """The release whose networks ``best`` plays (:mod:`agents.releases`; None: today's)."""
        if not isinstance(worlds, (int, np.integer)) or isinstance(worlds, bool) or worlds < 1:
            raise ValueError(f"pimc: worlds must be a positive int, got {worlds!r}")
        from agents import from_spec  # noqa: PLC0415  (agents imports this module lazily)

        rollout = resolve_player(rules, rollout, "rollout", frozen)
        record = family(rules)
        # A rollout outside the engine's own players is an agent (a spec: strategy, a checkpoint)
        # that plays every seat of the rollouts from their observations (every rollout is, where
        # the family's engine has no players of its own).
        engine_player = rollout in record.rollouts
        if rollout in ROLLOUTS and not engine_player:
            _refuse_engine_player(rollout, rules)
        self.worlds = int(worlds)
        self.rollout = rollout
        """The rollout player after ``best`` and ``heuristic`` are read (a name or an agent spec)."""
        if not isinstance(bids, (bool, np.bool_)):
            raise ValueError(f"pimc: bids must be true or false, got {bids!r}")
        self._bidding = bool(bids) and "bid" in rules.phases and not engine_player
        bid_worlds = 4 * int(worlds) if bid_worlds is None else bid_worlds
        if not isinstance(bid_worlds, (int, np.integer)) or isinstance(bid_worlds, bool) or bid_worlds < 2:
            raise ValueError(f"pimc: bid_worlds must be an int of at least 2, got {bid_worlds!r}")
        self.bid_worlds = int(bid_worlds)
        if isinstance(margin, bool) or not isinstance(margin, (int, float, np.floating)) or not margin >= 0:
            raise ValueError(f"pimc: margin must be a number of at least 0, got {margin!r}")
        self.margin = float(margin)
        self.memory_limit = self._memory_limit(memory_gb)  # before any player is built or loaded
        """The bytes one search batch may take (``memory_gb`` GiB)."""
        self.rollout_agent = None if engine_player else from_spec(rollout.replace(";", ":"), rules)
        self.fallback_spec = resolve_player(rules, fallback, "fallback", frozen).replace(";", ":")
        """The fallback agent's spec after ``best`` and ``heuristic`` are read."""
        self.fallback = from_spec(self.fallback_spec, rules)
        self.horizon = self._horizon(horizon)
        """The searching seat's turns a card play's rollout lasts before the value head takes over
        (None: the rollouts play to the end of the deal)."""
        self._reward = "points" if self.horizon is None else self.rollout_agent.value_reward
        self._positions = record.positions.worlds
        self._tables: dict[int, Table] = {}
        self._playing = "phase" in self.layout.slices and "playing" in rules.phases
        self.bids_searched = 0
        """Bids decided by search so far (the others went to ``fallback`` unsearched)."""
        self.bids_changed = 0
        """Searched bids where the search overruled the fallback's bid."""
        self.decisions = 0
        self.seconds = 0.0
        self.last_ms_per_decision = 0.0

    def _horizon(self, horizon: int | None) -> int | None:
        """``horizon`` checked: None, or an int of at least 1 with a rollout network whose value
        head can stand for the rest of the deal (``ValueError`` naming the rollout otherwise)."""
        if horizon is None:
            return None
        if not isinstance(horizon, (int, np.integer)) or isinstance(horizon, bool) or horizon < 1:
            raise ValueError(f"pimc: horizon must be an int of at least 1 (or none), got {horizon!r}")
        if not hasattr(self.rollout_agent, "act_and_value"):
            raise ValueError(
                f"pimc: horizon={horizon} needs a rollout network with a value head (rollout=best where "
                "a specialist ships, ppo;network=universal, or ppo;checkpoint=PATH), "
                f"not rollout={self.rollout!r}"
            )
        return int(horizon)

    def _memory_limit(self, memory_gb: float) -> int:
        """``memory_gb`` in bytes, after checking that one decision's search fits in it: a card
        play with every card of a full hand legal, and a searched bid with every decision legal
        (``ValueError`` naming the setting, the estimate and the limit otherwise)."""
        number = isinstance(memory_gb, (int, float, np.integer, np.floating)) and not isinstance(
            memory_gb, bool
        )
        if not number or not 0 < memory_gb < float("inf"):
            raise ValueError(f"pimc: memory_gb must be a positive number of GiB, got {memory_gb!r}")
        limit = int(memory_gb * 2**30)
        searches = [(f"worlds={self.worlds}", self.worlds, self.rules.hand_size, "cards of a full hand")]
        if self._bidding:
            decisions = len(self.rules.decisions)
            searches.append((f"bid_worlds={self.bid_worlds}", self.bid_worlds, decisions, "decisions"))
        for setting, worlds, choices, what in searches:
            need = search_bytes(worlds * choices)
            if need > limit:
                raise ValueError(
                    f"pimc: {setting} needs about {need / 2**30:.3g} GiB for one decision ({worlds} worlds x "
                    f"{choices} {what}, {BYTES_PER_GAME // 1024} KiB a game), over memory_gb={memory_gb:g}: "
                    "ask for fewer worlds, or raise memory_gb= where the machine has the memory"
                )
        return limit

    def _groups(self, games: np.ndarray) -> list[np.ndarray]:
        """The searched rows (their number of games, worlds × legal cards, given) in consecutive
        groups whose batch fits :attr:`memory_limit`, as few as can be: one group when all fit."""
        groups, start, total = [], 0, 0
        for i, count in enumerate(games):
            if search_bytes(count) > self.memory_limit:  # a hand larger than the rules' hand size
                raise ValueError(
                    f"pimc: one decision of {count} games (worlds x legal cards) needs about "
                    f"{search_bytes(count) / 2**30:.3g} GiB, over memory_gb={self.memory_limit / 2**30:g}"
                )
            if i > start and search_bytes(total + count) > self.memory_limit:
                groups.append(np.arange(start, i))
                start, total = i, 0
            total += int(count)
        groups.append(np.arange(start, len(games)))
        return groups

    @classmethod
    def weight_files(
        cls,
        rules: Rules,
        *,
        rollout: str = "best",
        fallback: str = "best",
        release: str | None = None,
        **params: Any,
    ) -> tuple[Path, ...]:
        """The files its rollout and fallback players read (the PPO specialist's, where ``best``
        plays it); an engine rollout (``fast``, ``ducker``...) reads none."""
        del params
        frozen = None if release is None else agent_release(release)
        from agents import weight_files  # noqa: PLC0415  (agents imports this module lazily)

        files: list[Path] = []
        for name, what in ((rollout, "rollout"), (fallback, "fallback")):
            with warnings.catch_warnings():  # building the agent warns when torch is missing
                warnings.simplefilter("ignore")
                spec = resolve_player(rules, name, what, frozen)
            if spec not in ROLLOUTS:  # the engine's players (and their agent namesakes) read none
                files += [f for f in weight_files(spec.replace(";", ":"), rules) if f not in files]
        return tuple(files)

    def _table(self, size: int) -> Table:
        bucket = 1 << max(size - 1, 0).bit_length()
        if bucket not in self._tables:
            self._tables[bucket] = Table(self.rules, num_games=bucket, reward=self._reward)
        return self._tables[bucket]

    def act(self, obs: Observation, rng: np.random.Generator) -> np.ndarray:
        start = time.perf_counter()
        observation, mask = obs["observation"], obs["action_mask"]
        actions = self.fallback.act(obs, rng)
        self._values = np.full(mask.shape, np.nan)
        phase = self.view(obs, "phase")
        playing = phase[:, self.rules.phases.index("playing")] > 0.5
        cards = mask[:, : self.rules.card_slots] > 0
        search = np.flatnonzero(playing & (cards.sum(axis=1) > 1))
        if len(search):
            for group in self._groups(self.worlds * cards[search].sum(axis=1)):
                rows = search[group]
                values = np.full((len(rows), mask.shape[1]), np.nan)
                actions[rows] = self._search(observation[rows], cards[rows], rng, actions[rows], values)
                self._values[rows] = values
        for i in self._bid_rows(observation, mask, phase):
            chosen = self._search_bid(observation[i], mask[i], rng, int(actions[i]), self._values[i])
            if chosen >= 0:
                self.bids_searched += 1
                self.bids_changed += int(chosen != actions[i])
                actions[i] = chosen
        spent = time.perf_counter() - start
        self.decisions += len(observation)
        self.seconds += spent
        self.last_ms_per_decision = 1000 * spent / max(len(observation), 1)
        return actions

    def last_options(self) -> np.ndarray | None:
        """The searched actions' mean value at the last :meth:`act` (B, A): the acting seat's
        reward over the sampled worlds (higher is better), as the search compared them; NaN for
        actions not searched (a single legal card, a decision the fallback made alone)."""
        return self._values

    def _search(
        self,
        observations: np.ndarray,
        legal: np.ndarray,
        rng: np.random.Generator,
        defaults: np.ndarray,
        values: np.ndarray | None = None,
    ) -> np.ndarray:
        """The searched card of each row; ``values`` (rows, A), if given, receives each legal
        card's mean value over the worlds."""
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
            value = result.rewards[:, 0] + self._agent_rollout(table, rng, n, self.horizon)
        value = value[:n]
        best = np.empty(len(observations), np.int64)
        offset = 0
        for i, a in enumerate(choices):
            k = w * len(a)
            outcomes = value[offset : offset + k].reshape(w, len(a))
            means = outcomes.mean(axis=0)
            best[i] = a[int(np.argmax(means))]
            if values is not None:
                values[i, a] = means
            if self.margin > 0 and defaults[i] in a:
                best[i] = self._keep_default(outcomes, a, int(defaults[i]), best[i])
            offset += k
        return best

    def _keep_default(self, outcomes: np.ndarray, choices: np.ndarray, default: int, best: int) -> int:
        """``best`` where its mean gain over ``default`` in the same worlds (``outcomes``: worlds
        × choices) exceeds ``margin`` standard errors of that gain, else ``default``."""
        if best == default or len(outcomes) < 2:
            return best
        if np.isinf(self.margin):
            return default
        gain = outcomes[:, choices == best][:, 0] - outcomes[:, choices == default][:, 0]
        error = gain.std(ddof=1) / np.sqrt(len(gain))
        return best if gain.mean() > self.margin * error else default

    # ------------------------------------------------------------------ bids
    def _bid_rows(self, observation: np.ndarray, mask: np.ndarray, phase: np.ndarray) -> np.ndarray:
        """The rows bidding before any card has moved (no pass, discard, draw or play yet) with a
        choice of bids: the public bids so far and the deal are all there is to know."""
        if not self._bidding:
            return np.zeros(0, np.int64)
        bidding = phase[:, self.rules.phases.index("bid")] > 0.5
        bidding &= (mask[:, self.rules.card_slots :] > 0).sum(axis=1) > 1
        for name in ("played_by_seat", "passed", "received", "thrown"):
            if name in self.layout.slices:
                moved = self.layout.view(observation, name).reshape(len(observation), -1)
                bidding &= ~(moved > 0).any(axis=1)
        return np.flatnonzero(bidding)

    def _bids_made(self, row: np.ndarray) -> dict[int, int]:
        """Relative seat -> the action of its bid, for the seats that have bid this deal."""
        rules, slots = self.rules, self.rules.card_slots
        if "bids" in self.layout.slices:  # Smear: one-hot over the bid decisions
            from hearts_env.games.smear.observation import bid_decisions  # noqa: PLC0415

            names = bid_decisions(rules)
            made = self.layout.view(row, "bids")
            return {
                int(seat): slots + rules.decisions.index(names[int(np.argmax(made[seat]))])
                for seat in np.flatnonzero(made.max(axis=1) > 0.5)
            }
        made = self.layout.view(row, "decisions")  # the Hearts family: the decisions made, per seat
        return {
            int(seat): slots + int(np.argmax(made[seat])) for seat in np.flatnonzero(made.max(axis=1) > 0.5)
        }

    def _search_bid(
        self,
        row: np.ndarray,
        mask: np.ndarray,
        rng: np.random.Generator,
        default: int,
        values: np.ndarray | None = None,
    ) -> int:
        """The bid to make: each of ``bid_worlds`` sampled deals dealt afresh, the bids so far
        made again by the seats that made them (bidding goes round once from the dealer's left,
        so the k seats that have bid are the k before the observer and the dealer sits before
        them), then every legal bid played out by the rollout agent. The fallback's bid
        (``default``) stands unless another bid's mean gain over it in the same worlds exceeds
        one standard error of that gain: the best of several noisy means is biased upwards, and
        a risky bid's outcomes vary most. -1 where a world made so does not show the observer
        his observation's hand, bids and legal actions (the fallback's bid is then made).
        ``values`` (A,), if given, receives each legal bid's mean value over the worlds."""
        n, w = self.rules.num_players, self.bid_worlds
        made = self._bids_made(row)
        k = len(made)
        if sorted(made) != list(range(n - k, n)):
            return -1
        choices = np.flatnonzero(mask)
        drawn = sample_worlds(self.rules, row, w, rng)
        count = w * len(choices)
        table = self._table(count)
        pick = np.minimum(np.arange(table.num_games) // len(choices), w - 1)  # padding: the last world again
        table.deal(drawn.hands[pick], dealer=(n - k - 1) % n, rng=rng)
        for seat in range(n - k, n):
            if (table.current_player != seat).any():
                return -1
            table.step(np.full(table.num_games, made[seat]))
        seen = table.observe()[:count]
        if (table.current_player != 0).any() or not (table.action_mask()[:count] == mask).all():
            return -1
        for name in ("hand", "bids", "decisions"):
            if name in self.layout.slices:
                shown = self.layout.view(seen, name)
                if not np.array_equal(shown, np.broadcast_to(self.layout.view(row, name), shown.shape)):
                    return -1
        actions = np.concatenate([np.tile(choices, w), np.full(table.num_games - count, choices[0])])
        value = table.step(actions).rewards[:, 0] + self._agent_rollout(table, rng, count)
        gain = value[:count].reshape(w, len(choices))
        if values is not None:
            values[choices] = gain.mean(axis=0)
        if default in choices:
            gain = gain - gain[:, np.flatnonzero(choices == default)]  # paired, world by world
        mean, error = gain.mean(axis=0), gain.std(axis=0, ddof=1) / np.sqrt(w)
        best = int(np.argmax(mean))
        if default in choices and not mean[best] > error[best]:
            return default
        return int(choices[best])

    def _agent_rollout(
        self, table: Table, rng: np.random.Generator, used: int, horizon: int | None = None
    ) -> np.ndarray:
        """Seat 0's reward of every game of ``table`` played to the end of the deal by the
        rollout agent in every seat; the games from ``used`` on only fill the table's size, so
        they play their first legal action and their rewards mean nothing. With a ``horizon``, a
        game stops counting when seat 0 is to act for the ``horizon``-th time, and the rollout
        network's estimate of seat 0's reward from there is its rest (it plays on with first
        legal actions, unread, until the last counted game ends)."""
        value = np.zeros(table.num_games)
        actions = np.zeros(table.num_games, np.int64)
        counted = np.arange(table.num_games) < used
        turns = np.zeros(table.num_games, np.int64)
        while True:
            live = np.flatnonzero(~table.deal_over)
            if not counted[live].any():
                return value
            mask = table.action_mask()
            rows, filler = live[counted[live]], live[~counted[live]]
            actions[filler] = mask[filler].argmax(axis=1)
            obs = {"observation": table.observe()[rows], "action_mask": mask[rows]}
            if horizon is None:
                actions[rows] = self.rollout_agent.act(obs, rng)
            else:
                actions[rows], estimate = self.rollout_agent.act_and_value(obs, rng)
                mine = table.current_player[rows] == 0
                turns[rows[mine]] += 1
                stop = mine & (turns[rows] >= horizon)
                value[rows[stop]] += estimate[stop]
                counted[rows[stop]] = False
            value += np.where(counted, table.step(actions).rewards[:, 0], 0.0)
