"""A batch of games with everything around the rules: seeding, fixed deals, rewards, episodes.

:class:`Table` is the one driver under both public interfaces: the Gymnasium vector env uses it
with B games and automatic restarts, the PettingZoo env with B = 1.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from hearts_env.bits import BIT, ZERO, unpack
from hearts_env.engine import DONE, Engine, State
from hearts_env.observation import Observer
from hearts_env.rules import PASS_DIRECTIONS, Rules

REWARDS = ("points", "zero_sum", "chips")


@dataclass
class StepResult:
    """What one step did to each game: ``rewards`` (B, P) per seat, and which games ended a
    deal, a game or an episode (a deal or a game, as ``rules.episode`` says)."""

    rewards: np.ndarray
    deal_ended: np.ndarray
    game_ended: np.ndarray
    episode_ended: np.ndarray
    illegal: np.ndarray


class Table:
    """B games of one rules set.

    ``reward``: ``"points"`` (minus the deal points), ``"zero_sum"`` (the other players' mean
    points minus one's own) or ``"chips"`` (the settlement option's chips).
    """

    def __init__(self, rules: Rules, num_games: int = 1, reward: str = "points") -> None:
        if reward not in REWARDS:
            raise ValueError(f"reward={reward!r} is not known: choose one of {', '.join(REWARDS)}")
        if not isinstance(num_games, (int, np.integer)) or num_games < 1:
            raise ValueError(f"num_games must be a positive int, got {num_games!r}")
        self.rules = rules
        self.reward = reward
        self.engine = Engine(rules)
        self.observer = Observer(self.engine)
        self.num_games = int(num_games)
        self.state: State = self.engine.new_state(self.num_games)
        self.rng = np.random.default_rng()
        self._rows = np.arange(self.num_games)
        self._legal: np.ndarray | None = None  # legal cards of the current state, once computed
        self._no_games = np.zeros(self.num_games, bool)
        self._no_games.flags.writeable = False  # shared "nothing happened" flags

    # ------------------------------------------------------------------ starting deals
    def reset(
        self, seed: int | None = None, options: Mapping[str, Any] | None = None, new_game: bool = True
    ) -> None:
        """Start a deal in every game: a new game, or (``new_game=False``) each game's next deal.

        ``options``: ``hands`` (one list of cards per seat, as dealt; the same deal in every
        game), ``dealer`` (int) and ``pass_direction`` (``"left"`` …). Unknown keys are ignored.
        Everything is validated before any state changes.
        """
        if seed is not None:
            self.rng = np.random.default_rng(seed)
        options = dict(options or {})
        dealer = options.get("dealer")
        direction = options.get("pass_direction")
        n = self.rules.num_players
        if dealer is not None and (not isinstance(dealer, (int, np.integer)) or not 0 <= dealer < n):
            raise ValueError(f"dealer must be a seat 0..{n - 1}, got {dealer!r}")
        if direction is not None:
            if direction not in PASS_DIRECTIONS:
                raise ValueError(
                    f"pass_direction must be one of {', '.join(PASS_DIRECTIONS)}, got {direction!r}"
                )
            if direction == "across" and n % 2:
                raise ValueError(f"cannot pass across with {n} players")
            if direction != "hold" and self.rules.pass_count == 0:
                raise ValueError(f"{self.rules.preset} has no passing (pass_count=0); use 'hold'")
        if options.get("hands") is not None:
            masks = self.engine.hands_from_cards(options["hands"], options.get("kitty"))
            hands = np.tile(np.array(masks[:-1], dtype=np.uint64), (self.num_games, 1))
            kitty = np.full(self.num_games, masks[-1], dtype=np.uint64)
        else:
            hands, kitty = self.engine.random_hands(self.rng, self.num_games)
        finished = self.state.game_over if not new_game else np.ones(self.num_games, bool)
        self._legal = None
        self.engine.deal(
            self.state,
            self._rows,
            hands,
            kitty,
            finished.copy(),
            None if dealer is None else np.full(self.num_games, dealer),
            None if direction is None else np.full(self.num_games, PASS_DIRECTIONS.index(direction)),
        )

    def deal_masks(
        self,
        hands: np.ndarray,
        kitty: np.ndarray | None = None,
        dealer: np.ndarray | int | None = None,
        pass_direction: np.ndarray | str | None = None,
        new_game: bool = True,
    ) -> None:
        """Start a different given deal in every game (tournaments, replays, tests).

        ``hands`` (B, P) uint64 masks as dealt (see :meth:`Engine.hands_from_cards` to build
        them from card names); ``kitty`` (B,); ``dealer`` and ``pass_direction`` (a name or
        direction indices into ``PASS_DIRECTIONS``) per game or for all.
        """
        b = self.num_games
        hands = np.asarray(hands, dtype=np.uint64).reshape(b, self.rules.num_players)
        counts = np.bitwise_count(hands)
        if (counts != self.rules.hand_size).any() or (
            np.bitwise_or.reduce(hands, axis=1) & ~np.uint64(self.rules.deck_mask)
        ).any():
            raise ValueError(f"every hand must hold {self.rules.hand_size} cards of this deck")
        kitty = np.zeros(b, np.uint64) if kitty is None else np.asarray(kitty, dtype=np.uint64).reshape(b)
        self._legal = None
        if isinstance(pass_direction, str):
            pass_direction = PASS_DIRECTIONS.index(pass_direction)
        self.engine.deal(
            self.state,
            self._rows,
            hands,
            kitty,
            np.full(b, new_game) | self.state.game_over,
            None if dealer is None else np.broadcast_to(np.asarray(dealer, np.int64), (b,)).copy(),
            None
            if pass_direction is None
            else np.broadcast_to(np.asarray(pass_direction, np.int64), (b,)).copy(),
        )

    def restore_games(self, totals: np.ndarray, deal_index: np.ndarray, game_over: np.ndarray) -> None:
        """Put saved game progress back (e.g. to resume a tournament): totals (B, P), deals
        already played (B,) and whether each game is over. The next deal continues from it."""
        b, p = self.num_games, self.rules.num_players
        totals = np.asarray(totals, np.int64)
        if totals.shape != (b, p):
            raise ValueError(f"totals must have shape {(b, p)}, got {totals.shape}")
        self.state.totals[:] = totals
        self.state.deal_index[:] = np.broadcast_to(np.asarray(deal_index, np.int64), (b,))
        self.state.game_over[:] = np.broadcast_to(np.asarray(game_over, bool), (b,))

    def redeal(self, rows: np.ndarray) -> None:
        """Start the next deal (or a new game, where the game is over) in ``rows``."""
        self._legal = None
        hands, kitty = self.engine.random_hands(self.rng, len(rows))
        self.engine.deal(self.state, rows, hands, kitty, self.state.game_over[rows].copy())

    # ------------------------------------------------------------------ stepping
    def step(self, actions: np.ndarray) -> StepResult:
        """Play one decision in every game. Illegal actions raise ``ValueError`` (state
        unchanged) unless ``illegal_action="terminate"``, which forfeits the offender's deal."""
        s, engine = self.state, self.engine
        actions = np.asarray(actions, dtype=np.int64).reshape(self.num_games)
        if (s.phase[0] == DONE) if s.lockstep else (s.phase == DONE).any():
            raise ValueError("a deal is over: call reset() before stepping")
        legal = self.legal()
        if self.rules.illegal_action == "terminate":
            self._legal = None
            in_range = (actions >= 0) & (actions < engine.num_actions)
            illegal = ~in_range | ((legal & BIT[np.clip(actions, 0, 64)]) == ZERO)
            if illegal.any():
                bad = np.flatnonzero(illegal)
                engine.forfeit(s, bad)
                actions = np.where(illegal, 0, actions)
                if illegal.all():
                    return self._finish(np.zeros(self.num_games, bool), illegal)
                live = np.flatnonzero(~illegal)
                sub = s.take(live)
                ended_live = engine.step(sub, actions[live], check=False)
                s.put(live, sub)
                ended = np.zeros(self.num_games, bool)
                ended[live] = ended_live
                return self._finish(ended, illegal)
        ended = engine.step(s, actions, check=True, legal=legal)
        self._legal = None
        return self._finish(ended, None)

    def _finish(self, ended: np.ndarray, illegal: np.ndarray | None) -> StepResult:
        s = self.state
        if illegal is None:
            illegal = self._no_games
            deal_ended = ended
        else:
            deal_ended = ended | illegal
            if self.rules.episode == "game":
                s.game_over |= illegal
        rewards = np.zeros((self.num_games, self.rules.num_players))
        if not deal_ended.any():  # the common step: nothing ended
            return StepResult(rewards, deal_ended, self._no_games, self._no_games, illegal)
        rows = np.flatnonzero(deal_ended)
        rewards[rows] = self.rewards_of(rows)
        game_ended = deal_ended & s.game_over
        episode_ended = deal_ended if self.rules.episode == "deal" else game_ended
        return StepResult(rewards, deal_ended, game_ended, episode_ended, illegal)

    def rewards_of(self, rows: np.ndarray) -> np.ndarray:
        """Per-seat rewards of the deals just finished in ``rows``."""
        s = self.state
        points = s.deal_points[rows].astype(np.float64)
        if self.reward == "points":
            return -points
        if self.reward == "zero_sum":
            n = self.rules.num_players
            others = (points.sum(axis=1, keepdims=True) - points) / (n - 1)
            return others - points
        return s.chips[rows].copy()

    # ------------------------------------------------------------------ views
    def observe(
        self, seats: np.ndarray | None = None, out: np.ndarray | None = None, constants: bool = True
    ) -> np.ndarray:
        """Observations (B, D) of ``seats`` (default: the acting seats), into ``out`` if given
        (``constants=False``: leave the pieces that never change, ``card_values``, as they are
        in ``out``)."""
        seats = self.state.current if seats is None else np.asarray(seats, dtype=np.int64)
        return self.observer(self.state, seats, out, constants)

    def legal(self) -> np.ndarray:
        """(B,) uint64 legal cards of the acting seats (cached until the state changes)."""
        if self._legal is None:
            self._legal = self.engine.legal(self.state)
        return self._legal

    def action_mask(self) -> np.ndarray:
        """int8 (B, A) legal actions of the acting seats (all zero in finished games)."""
        return unpack(self.legal(), self.engine.num_actions).view(np.int8)

    def game_info(self, rows: Sequence[int] | np.ndarray) -> dict[str, np.ndarray]:
        """Deal points, totals and game-end flags of ``rows`` (for infos)."""
        s = self.state
        return {
            "deal_points": s.deal_points[rows].copy(),
            "total_points": s.totals[rows].copy(),
            "game_over": s.game_over[rows].copy(),
            "moon_shooter": s.moon_shooter[rows].copy(),
            "chips": s.chips[rows].copy(),
        }
