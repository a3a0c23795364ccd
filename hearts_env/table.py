"""A batch of games with everything around the rules: seeding, fixed deals, rewards, episodes.

:class:`Table` is the one driver under both public interfaces: the Gymnasium vector env uses it
with B games and automatic restarts, the PettingZoo env with B = 1.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import numpy as np

from hearts_env.core import cardsets
from hearts_env.core.bits import BIT, U64, random_bit, unpack
from hearts_env.core.cards import NUM_CARDS, card_name
from hearts_env.core.engine import BatchState, CardEngine
from hearts_env.core.family import Positions, default_reward
from hearts_env.core.phases import DONE
from hearts_env.core.rules import PASS_DIRECTIONS, Rules
from hearts_env.games import family
from hearts_env.games.hearts import rollouts, stock

REWARDS = ("points", "zero_sum", "team", "chips", "settlement")
"""What a finished deal pays each seat (``Table(reward=...)``)."""
EPISODES = ("deal", "game")
"""What one environment episode is (``Table(episode=...)``): a deal, or a whole game."""
ILLEGAL_ACTIONS = ("raise", "terminate")
"""What an illegal action does (``Table(illegal_action=...)``): raise a ``ValueError`` and change
nothing, or forfeit the offender's deal (charged the deal's maximum penalty; the episode ends)."""
SETTINGS = ("reward", "episode", "illegal_action")
"""The env settings: :class:`Table`'s keyword arguments besides the rules, saved with its state."""

STATE_FORMAT, STATE_VERSION = "hearts_env.table", 3
"""What :meth:`Table.state_dict` writes: bump the version when the fields change meaning (and
let :meth:`~hearts_env.core.engine.CardEngine.upgrade_saved` read the older one). Version 2: one phase
vocabulary for every family (:mod:`hearts_env.core.phases`) and the tricks' published winners.
Version 3: the env settings ``episode`` and ``illegal_action`` beside ``reward`` (before, they were
entries of the saved ``"rules"``); the fields are version 2's."""
READ_VERSIONS = (1, 2, 3)
"""The state versions :meth:`Table.load_state_dict` reads."""
_UPGRADED_FIELDS = (1,)
"""The versions whose fields the engine upgrades to today's
(:meth:`~hearts_env.core.engine.CardEngine.upgrade_saved`); version 3 changed no field."""


_DEAL_INFOS = {
    "deal_points": "deal_points", "total_points": "totals", "game_over": "game_over",
    "moon_shooter": "moon_shooter", "chips": "chips", "team_points": "team_points", "cancelled": "cancelled",
}  # fmt: skip
"""The end-of-deal infos of every family: info key -> state field."""


RESET_OPTIONS = ("hands", "kitty", "widow", "stock", "dealer", "pass_direction", "new_game", "position")
"""The keys of ``reset(options=...)`` (:meth:`Table.reset`); any other key is refused."""
TOLERATED_RESET_OPTIONS = ("options",)
"""Keys that ``reset`` accepts and ignores: PettingZoo's ``api_test`` and ``parallel_api_test``
call ``reset(seed=0, options={"options": 1})`` to see that ``reset`` takes options."""
_INT64_MAX = int(np.iinfo(np.int64).max)


def make_engine(rules: Rules) -> tuple[CardEngine, Any]:
    """The engine and the observation builder for ``rules``: the one place where the game
    family (``rules.game``) chooses its mechanisms."""
    return family(rules).build(rules)


def _read_only(array: np.ndarray) -> np.ndarray:
    view = array.view()
    view.flags.writeable = False
    return view


class _StateView:
    """A read-only view of one field of a table's games (``table.deal_points`` …)."""

    def __init__(self, field: str, doc: str) -> None:
        self.field, self.__doc__ = field, doc

    def __get__(self, table: Table | None, owner: type) -> Any:
        return self if table is None else _read_only(getattr(table.state, self.field))


def _check_setting(name: str, value: Any, allowed: tuple[str, ...]) -> None:
    """A ``ValueError`` naming the setting and the choices unless ``value`` is one of ``allowed``."""
    if not isinstance(value, str) or value not in allowed:
        raise ValueError(f"{name}={value!r} is not known: choose one of {', '.join(allowed)}")


def _shown_settings(settings: Mapping[str, Any]) -> str:
    """``reward='points', episode='deal', illegal_action='raise'``, for messages."""
    return ", ".join(f"{name}={value!r}" for name, value in settings.items())


def _is_sequence(value: Any) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, (str, bytes))


def _is_int(value: Any) -> bool:
    """A Python or numpy integer, not a bool."""
    return isinstance(value, (int, np.integer)) and not isinstance(value, (bool, np.bool_))


def _integers(name: str, value: Any, shape: tuple[int, ...], what: str, low: int | None = None) -> np.ndarray:
    """``value`` as an int64 array broadcast to ``shape``, or a ``TypeError`` / ``ValueError``
    naming ``name``, the value and ``what`` it should be (never NumPy's words, nor an
    ``OverflowError``): ints only (no bools, floats or strings), each at least ``low``."""
    try:
        array = np.asarray(value)
    except (TypeError, ValueError):  # ragged nested lists
        raise TypeError(f"{name} must be {what}, got {_shown(value)}") from None
    if array.dtype == object and all(_is_int(v) for v in array.flat):
        if any(not -_INT64_MAX - 1 <= int(v) <= _INT64_MAX for v in array.flat):
            raise ValueError(f"{name} must be {what} within int64, got {_shown(value)}")
        array = array.astype(np.int64)
    if array.dtype.kind not in "iu":
        raise TypeError(f"{name} must be {what}, got {_shown(value)} (dtype {array.dtype})")
    if array.dtype.kind == "u" and (array > _INT64_MAX).any():
        raise ValueError(f"{name} must be {what} within int64, got {_shown(value)}")
    array = array.astype(np.int64)
    if low is not None and (array < low).any():
        raise ValueError(f"{name} must be {what}, got {_shown(value)}")
    try:
        return np.broadcast_to(array, shape).copy()
    except ValueError:
        raise ValueError(f"{name} must be {what} of shape {shape}, got shape {array.shape}") from None


def _card_sets(name: str, value: Any, shape: tuple[int, ...]) -> np.ndarray:
    """``value`` as uint64 card sets (bit c = card c) of ``shape``, or an error naming ``name``."""
    try:
        array = np.asarray(value)
    except (TypeError, ValueError):
        raise TypeError(f"{name} must be uint64 card sets of shape {shape}, got {_shown(value)}") from None
    if array.dtype == object and all(_is_int(v) and 0 <= int(v) < 2**64 for v in array.flat):
        array = array.astype(np.uint64)
    if array.dtype.kind not in "iu" or (array.dtype.kind == "i" and (array < 0).any()):
        raise TypeError(
            f"{name} must be uint64 card sets (bit c for card c) of shape {shape}, got {_shown(value)} "
            f"(dtype {array.dtype})"
        )
    if array.size != int(np.prod(shape)):
        raise ValueError(f"{name} must be card sets of shape {shape}, got shape {array.shape}")
    return array.astype(np.uint64).reshape(shape)


def _shown(value: Any) -> str:
    """``value`` for an error message, cut short."""
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


@dataclass(frozen=True)
class ResetPlan:
    """A checked ``reset`` request (see :meth:`Table.parse_reset`)."""

    seed: int | None
    dealer: int | None
    pass_direction: str | None
    masks: tuple[int, ...] | tuple[tuple[int, int], ...] | None
    """One hand mask per seat and the kitty last, for a given deal (two decks: a ``(lo, hi)``
    pair each, see :meth:`Engine.hands_from_cards`); None: deal from the seed."""
    stock: np.ndarray | None
    """Domino Hearts: the given deal's stock in draw order (None: a random order)."""
    new_game: bool
    position: Any = None
    """``options["position"]`` checked: the batch every game starts from (None: a deal)."""


@dataclass
class StepResult:
    """What one step did to each game: ``rewards`` (B, P) per seat, and which games ended a
    deal, a game or an episode (a deal or a game, as the table's ``episode`` says)."""

    rewards: np.ndarray
    deal_ended: np.ndarray
    game_ended: np.ndarray
    episode_ended: np.ndarray
    illegal: np.ndarray


class Table:
    """B games of one rules set: the batch API that the envs, agents, tournaments and
    training use (``hearts_env.Table``).

    >>> table = Table(make_rules("hearts"), num_games=1024)
    >>> table.reset(seed=0)                       # a new game in every one, dealt from the seed
    >>> mask = table.action_mask()                # (B, A) int8: the acting seats' legal actions
    >>> obs = table.observe()                     # (B, F) float32, from each acting seat's view
    >>> result = table.step(actions)              # (B,) ints; rewards (B, P), deal/game ends
    >>> table.redeal(np.flatnonzero(result.deal_ended))   # next deals where one ended

    ``table.current_player`` is each game's acting seat; ``table.deal_over``, ``game_info(rows)`` and
    the read-only views (``totals``, ``deal_points``…) report without exposing the engine's
    state; ``state_dict()`` / ``load_state_dict()`` save and restore everything as plain arrays.

    ``reward``: ``"points"`` (minus the deal points), ``"zero_sum"`` (the other players' mean
    points minus one's own), ``"team"`` (minus the team's points, for each of its players) or
    ``"chips"`` / ``"settlement"`` (the settlement option's chips); ``None``: ``"team"`` in
    partnership games, else ``"points"``. ``episode``: what :attr:`StepResult.episode_ended`
    marks, a ``"deal"`` or a whole ``"game"`` (:data:`EPISODES`). ``illegal_action``: ``"raise"``
    a ``ValueError``, nothing changed, or ``"terminate"``: the offender forfeits the deal
    (:data:`ILLEGAL_ACTIONS`). These three are the env's settings, not the game's rules.
    """

    def __init__(
        self,
        rules: Rules,
        num_games: int = 1,
        reward: str | None = None,
        episode: str = "deal",
        illegal_action: str = "raise",
    ) -> None:
        reward = default_reward(rules) if reward is None else reward
        _check_setting("reward", reward, REWARDS)
        _check_setting("episode", episode, EPISODES)
        _check_setting("illegal_action", illegal_action, ILLEGAL_ACTIONS)
        if reward == "settlement":
            reward = "chips"
        record = family(rules)
        if reward == "chips" and (not record.chips or not rules.pays_chips):
            raise ValueError(
                f"reward='chips' pays the settlement's chips, and {rules.preset} has none"
                f"{'' if record.chips else f' (a {record.title} game)'}: every reward would be 0; choose a "
                "settlement (e.g. settlement='howell') or another reward"
            )
        if not _is_int(num_games) or num_games < 1:
            raise ValueError(f"num_games must be a positive int, got {num_games!r}")
        self.rules = rules
        self.reward = reward
        self.episode = episode
        self.illegal_action = illegal_action
        self.engine, self.observer = make_engine(rules)
        self.num_games = int(num_games)
        self.state: BatchState = self.engine.new_state(self.num_games)
        self.rng = np.random.default_rng()
        self._rows = np.arange(self.num_games)
        self._legal: np.ndarray | None = None  # legal cards of the current state, once computed
        self._no_games = np.zeros(self.num_games, bool)
        self._no_games.flags.writeable = False  # shared "nothing happened" flags

    # ------------------------------------------------------------------ starting deals
    def parse_reset(self, seed: Any = None, options: Any = None, num_games: int | None = None) -> ResetPlan:
        """Check ``reset(seed, options)`` without changing anything; the plan :meth:`reset` runs.

        Raises ``TypeError`` / ``ValueError`` naming the offending value: an option key other
        than :data:`RESET_OPTIONS` is refused (except :data:`TOLERATED_RESET_OPTIONS`, ignored).
        A ``position`` is checked completely, its trick played on a scratch copy of the games.
        ``num_games``: check for a table of that many games of these rules (default this
        one's; the vector env checks each shard's part).
        """
        n = self.rules.num_players
        if seed is not None and (not _is_int(seed) or seed < 0):
            raise TypeError(f"seed must be a non-negative int or None, got {seed!r}")
        if options is None:
            options = {}
        if not isinstance(options, Mapping):
            raise TypeError(
                f"reset options must be a dict such as {{'dealer': 0}} or None, got "
                f"{type(options).__name__} {options!r}"
            )
        unknown = [k for k in options if k not in RESET_OPTIONS and k not in TOLERATED_RESET_OPTIONS]
        if unknown:
            raise ValueError(
                f"reset option(s) {', '.join(map(repr, unknown))} not known: the options are "
                f"{', '.join(RESET_OPTIONS)}"
            )
        if options.get("position") is not None:
            return self._parse_position(seed, options, num_games)
        dealer = options.get("dealer")
        if dealer is not None:
            if not _is_int(dealer):
                raise TypeError(f"dealer must be an int seat 0..{n - 1}, got {dealer!r}")
            if not 0 <= dealer < n:
                raise ValueError(f"dealer must be a seat 0..{n - 1}, got {dealer!r}")
        direction = options.get("pass_direction")
        if direction is not None:
            self._check_direction(direction)
        new_game = options.get("new_game", False)
        if not isinstance(new_game, (bool, np.bool_)):
            raise TypeError(f"new_game must be True or False, got {new_game!r}")
        masks = order = None
        self._check_deal_keys(options)
        if options.get("hands") is not None:
            hands = options["hands"]
            kitty = options.get("kitty") if options.get("kitty") is not None else options.get("widow")
            if not _is_sequence(hands) or not all(_is_sequence(h) for h in hands):
                raise TypeError(
                    f"hands must be a list of {n} lists of cards (e.g. [['2C', 'QS', ...], ...]), "
                    f"got {hands!r}"
                )
            if kitty is not None and not _is_sequence(kitty):
                raise TypeError(f"kitty must be a list of cards, got {kitty!r}")
            masks = self.engine.hands_from_cards(
                [list(h) for h in hands], None if kitty is None else list(kitty)
            )
            given_stock = options.get("stock")
            if given_stock is not None and not _is_sequence(given_stock):
                raise TypeError(f"stock must be a list of cards in draw order, got {given_stock!r}")
            order = self.engine.undealt_order(
                None if kitty is None else list(kitty),
                None if given_stock is None else list(given_stock),
                masks[-1],
            )
        return ResetPlan(
            None if seed is None else int(seed),
            None if dealer is None else int(dealer),
            direction,
            masks,
            order,
            bool(new_game),
        )

    def _check_direction(self, direction: Any, name: str = "pass_direction") -> None:
        """``ValueError`` unless ``direction`` is a pass direction these rules can use."""
        n = self.rules.num_players
        if not isinstance(direction, str) or direction not in PASS_DIRECTIONS:
            raise ValueError(f"{name} must be one of {', '.join(PASS_DIRECTIONS)}, got {direction!r}")
        if direction == "across" and n % 2:
            raise ValueError(f"{name}='across' is impossible with {n} players")
        if direction != "hold" and not self.rules.passes:
            raise ValueError(
                f"{name}={direction!r}: {self.rules.preset} has no passing; use 'hold'"
            )

    def _parse_position(self, seed: Any, options: Mapping[str, Any], num_games: int | None) -> ResetPlan:
        """The plan of ``reset(options={"position": ...})``: every game starts from the position."""
        given = [k for k in RESET_OPTIONS if k != "position" and options.get(k) is not None]
        if given:
            raise ValueError(
                f"reset options 'position' and {', '.join(map(repr, given))} exclude each other: the "
                "position gives its hands, kitty, stock, dealer, pass direction and game itself"
            )
        batch = self._position_batch(options["position"], num_games)
        self._try_positions(batch)
        return ResetPlan(None if seed is None else int(seed), None, None, None, None, False, batch)

    def _check_deal_keys(self, options: Mapping[str, Any]) -> None:
        """The parts of a fixed deal besides ``hands`` (``stock``, ``kitty`` or its other name
        ``widow``) come with ``hands``, and only where the rules have them: otherwise the deal
        would be random, or the cards would be put where the rules have no place for them."""
        r = self.rules
        has = {
            "stock": r.deals_stock,
            "kitty": r.deals_kitty,
        }
        given = [key for key in ("stock", "kitty", "widow") if options.get(key) is not None]
        if "kitty" in given and "widow" in given:
            raise ValueError("give the kitty as 'kitty' or as 'widow' (the same thing), not both")
        for key in given:
            if not has["stock" if key == "stock" else "kitty"]:
                what = "stock" if key == "stock" else "kitty or widow"
                raise ValueError(f"{r.preset} has no {what}: leave out the {key!r} option of reset")
            if options.get("hands") is None:
                raise ValueError(
                    f"{r.preset}: reset option {key!r} is part of a fixed deal and needs 'hands' too "
                    f"(without 'hands' the deal is random and {key!r} would be ignored)"
                )

    def reset(
        self, seed: Any = None, options: Mapping[str, Any] | None = None, new_game: bool = True
    ) -> None:
        """Start a deal in every game: a new game, or (``new_game=False``) each game's next deal.

        ``options`` (:data:`RESET_OPTIONS`): ``hands`` (one list of cards per seat, as dealt, a
        card twice for both copies with two decks; the same deal in every game), ``kitty``
        (or ``widow``), ``stock``, ``dealer`` (int), ``pass_direction`` (``"left"`` …),
        ``new_game`` (``True`` forces a new game), or ``position`` alone (every game starts
        from it, see :meth:`set_position`). Another key is a ``ValueError`` listing these.
        Everything is validated before anything changes: a failed reset leaves the games and
        the random generator as they were.
        """
        plan = self.parse_reset(seed, options)
        with self._unchanged_if_refused():
            if plan.seed is not None:
                self.rng = np.random.default_rng(plan.seed)
            if plan.position is not None:
                self._apply_positions(plan.position)
            else:
                self._deal_plan(plan, new_game or plan.new_game)

    def _deal_plan(self, plan: ResetPlan, new_game: bool) -> None:
        """Deal ``plan``'s deal (given, or from the generator) in every game."""
        if plan.masks is not None:
            hands = np.array(plan.masks[:-1], dtype=np.uint64)  # (P,); two decks (P, 2)
            kitty = np.array(plan.masks[-1], dtype=np.uint64)
            hands = np.broadcast_to(hands, (self.num_games, *hands.shape)).copy()
            kitty = np.broadcast_to(kitty, (self.num_games, *kitty.shape)).copy()
        else:
            hands, kitty = self.engine.random_hands(self.rng, self.num_games)
        stock_cards = None
        if self.engine.stock_size:
            if plan.stock is not None:
                stock_cards = np.tile(plan.stock, (self.num_games, 1))
                if (plan.stock < 0).any():  # Smear: the order after the given widow is left to chance
                    rest = kitty & ~np.bitwise_or.reduce(
                        BIT.take(plan.stock[plan.stock >= 0]), initial=U64(0)
                    )
                    chance = stock.stock_order(rest, int((plan.stock < 0).sum()), self.rng)
                    stock_cards[:, plan.stock < 0] = chance
            else:
                stock_cards = stock.stock_order(kitty, self.engine.stock_size, self.rng)
        finished = self.state.game_over if not new_game else np.ones(self.num_games, bool)
        self._legal = None
        self.engine.deal(
            self.state,
            self._rows,
            hands,
            kitty,
            finished.copy(),
            None if plan.dealer is None else np.full(self.num_games, plan.dealer),
            None
            if plan.pass_direction is None
            else np.full(self.num_games, PASS_DIRECTIONS.index(plan.pass_direction)),
            stock_cards,
        )
        self._deal_again_cancelled()

    @contextmanager
    def _unchanged_if_refused(self) -> Iterator[None]:
        """Run the block; if it raises (a refusal found late, a Ctrl-C), put the games, the
        random generator and the legal-move cache back as they were, then re-raise: a method
        that fails leaves the table as it was and usable."""
        saved, rng, rng_state, legal = self.state.copy(), self.rng, self.rng.bit_generator.state, self._legal
        try:
            yield
        except BaseException:
            for name in saved.array_fields():
                getattr(self.state, name)[...] = getattr(saved, name)
            for flag in saved.FLAGS:
                setattr(self.state, flag, getattr(saved, flag))
            rng.bit_generator.state = rng_state
            self.rng, self._legal = rng, legal
            raise

    def _positions(self) -> Positions:
        """The family's positions (:attr:`Family.positions`); ``NotImplementedError`` for a family
        without (what the conformance kit reads as "does not apply")."""
        record = family(self.rules)
        if record.positions is None:
            raise NotImplementedError(
                f"a {record.title} table starts only from deals: the family has no positions"
            )
        return record.positions

    def _position_batch(self, position: Any, num_games: int | None = None) -> Any:
        """``position`` checked, as a batch of ``num_games`` positions (default: this table's)."""
        num_games = self.num_games if num_games is None else num_games
        kind = self._positions()
        batch = kind.batch
        if not isinstance(position, batch):
            if kind.single is None:
                raise TypeError(
                    f"a {family(self.rules).title} table starts from a {batch.__module__}.{batch.__name__}, "
                    f"got {type(position).__name__}"
                )
            return kind.single(self.rules, position).take(np.zeros(num_games, np.int64))
        if len(position) == 1 and num_games > 1:  # one position for every game
            position = position.take(np.zeros(num_games, np.int64))
        if len(position) != num_games:
            raise ValueError(
                f"a {batch.__name__} for this table needs {num_games} positions (or 1), got {len(position)}"
            )
        kind.check(self.rules, position)
        return position

    def _try_positions(self, batch: Any) -> None:
        """Start ``batch`` on a scratch state: the engine's own checks (the trick played again
        by the rules) refuse it here, before any game changes."""
        scratch = self.engine.new_state(len(batch))
        self.engine.set_positions(scratch, np.arange(len(batch)), batch, check_trick=True)

    def _apply_positions(self, batch: Any, check: bool = True) -> None:
        self._legal = None
        self.engine.set_positions(self.state, self._rows, batch, check_trick=check)

    def set_position(self, position: Any, check: bool = True) -> None:
        """Start every game from ``position``: a :class:`hearts_env.Position` (the same in every
        game) or a :class:`hearts_env.PositionBatch` of ``num_games`` positions, one per game
        (docs/positions-and-search.md); Smear: a
        :class:`hearts_env.games.smear.PositionBatch` of
        ``num_games`` positions or one. Checked first (``ValueError`` naming what is
        inconsistent); a refused position changes nothing. ``check=False`` skips the checks
        of a batch built by code that keeps them (the search agent), and the trick's legality:
        a sampled world may give a seat cards it could not have held, given how it played; such a
        batch is applied as it is, with no copy of the state kept to restore)."""
        unchecked = (
            not check and isinstance(position, self._positions().batch) and len(position) == self.num_games
        )
        if unchecked:  # nothing is checked, so nothing is refused late: no snapshot to pay for
            self._apply_positions(position, check=False)
            return
        batch = self._position_batch(position)
        with self._unchanged_if_refused():
            self._apply_positions(batch)

    def position(self, game: int = 0) -> Any:
        """The position of ``game`` (an int 0..num_games-1) now, as a
        :class:`hearts_env.Position` (card names, absolute seats; Smear: a
        :class:`~hearts_env.games.smear.positions.SmearPositionBatch` of one): ``Table.set_position``
        of it starts the same deal from here. ``ValueError`` unless the game is in its play
        phase; ``TypeError`` / ``ValueError`` for a ``game`` that is not one of the table's."""
        if not _is_int(game):
            raise TypeError(f"game must be an int 0..{self.num_games - 1}, got {_shown(game)}")
        if not 0 <= game < self.num_games:
            raise ValueError(
                f"game must be 0..{self.num_games - 1} (this table has {self.num_games}), got {game}"
            )
        return self._positions().read(self.engine, self.state, int(game))

    def _deal_again_cancelled(self) -> None:
        """Deals cancelled before any decision (``first_trick_all_penalty="redeal"`` and no
        pass) are dealt again at once, by the same dealer, from the generator."""
        s = self.state
        for _ in range(1000):
            cancelled = np.flatnonzero(s.cancelled & (s.phase == DONE))
            if not len(cancelled):
                return
            hands, kitty = self.engine.random_hands(self.rng, len(cancelled))
            new_game = np.zeros(len(cancelled), bool)
            self.engine.deal(s, cancelled, hands, kitty, new_game, stock_cards=self._stock(kitty))
        raise RuntimeError("1000 deals in a row were cancelled: these rules cannot deal a playable hand")

    def deal_masks(
        self,
        hands: np.ndarray,
        kitty: np.ndarray | None = None,
        dealer: np.ndarray | int | None = None,
        pass_direction: np.ndarray | str | None = None,
        new_game: bool = True,
        stock: np.ndarray | None = None,
    ) -> None:
        """Start a different given deal in every game (tournaments, replays, tests).

        ``hands`` (B, P) uint64 masks as dealt (see :meth:`Engine.hands_from_cards` to build
        them from card names); ``kitty`` (B,); with two decks both words of each, ``hands``
        (B, P, 2) and ``kitty`` (B, 2) (:func:`hearts_env.core.cardsets.stack`); ``dealer`` and
        ``pass_direction`` (a name or direction indices into ``PASS_DIRECTIONS``) per game or
        for all; ``stock`` (B, S) int64 Domino Hearts' undealt cards in draw order (None: a
        random order from the generator). A bad argument is a ``TypeError`` / ``ValueError``
        naming it; nothing changes then.
        """
        b, p, words = self.num_games, self.rules.num_players, (2,) if self.engine.two_decks else ()
        hands = _card_sets("hands", hands, (b, p, *words))
        kitty = np.zeros((b, *words), np.uint64) if kitty is None else _card_sets("kitty", kitty, (b, *words))
        if self.engine.two_decks:
            self._check_two_deck_deals(hands, kitty)
        elif (np.bitwise_count(hands) != self.rules.hand_size).any() or (
            np.bitwise_or.reduce(hands, axis=1) & ~np.uint64(self.rules.deck_mask)
        ).any():
            raise ValueError(f"every hand must hold {self.rules.hand_size} cards of this deck")
        if not isinstance(new_game, (bool, np.bool_)):
            raise TypeError(f"new_game must be True or False, got {_shown(new_game)}")
        dealers = None if dealer is None else self._seats("dealer", dealer)
        directions = None if pass_direction is None else self._directions(pass_direction)
        given_stock = self._given_stock(hands, stock)
        with self._unchanged_if_refused():
            self._legal = None
            self.engine.deal(
                self.state,
                self._rows,
                hands,
                kitty,
                np.full(b, new_game) | self.state.game_over,
                dealers,
                directions,
                given_stock,
            )

    def _seats(self, name: str, value: Any) -> np.ndarray:
        """``value`` (a seat, or one per game) as (B,) int64 seats, or an error naming ``name``."""
        what = f"a seat 0..{self.rules.num_players - 1} (or one per game)"
        seats = _integers(name, value, (self.num_games,), what, 0)
        if (seats >= self.rules.num_players).any():
            raise ValueError(f"{name} must be {what}, got {_shown(value)}")
        return seats

    def _directions(self, value: Any) -> np.ndarray:
        """``pass_direction`` of :meth:`deal_masks` (a name, or indices into ``PASS_DIRECTIONS``,
        one or per game) as (B,) indices, each a direction these rules can use."""
        if isinstance(value, str):
            self._check_direction(value)
            return np.full(self.num_games, PASS_DIRECTIONS.index(value))
        what = f"a name or an index 0..{len(PASS_DIRECTIONS) - 1} into {PASS_DIRECTIONS} (or one per game)"
        indices = _integers("pass_direction", value, (self.num_games,), what, 0)
        if (indices >= len(PASS_DIRECTIONS)).any():
            raise ValueError(f"pass_direction must be {what}, got {_shown(value)}")
        for index in np.unique(indices):
            self._check_direction(PASS_DIRECTIONS[index])
        return indices

    def _check_two_deck_deals(self, hands: np.ndarray, kitty: np.ndarray) -> None:
        """Two decks: every hand of ``hands`` (B, P, 2) holds hand_size cards and, with the
        kitty (B, 2), every card of the deck exactly twice."""
        lo, hi = hands[..., 0], hands[..., 1]
        if (hi & ~lo).any() or (kitty[:, 1] & ~kitty[:, 0]).any():
            raise ValueError("a two-deck card set (lo, hi) must have hi within lo (hi: the cards held twice)")
        if (cardsets.count(lo, hi) != self.rules.hand_size).any():
            raise ValueError(f"every hand must hold {self.rules.hand_size} cards")
        copies = cardsets.counts(lo, hi, 64).sum(axis=1) + cardsets.counts(kitty[:, 0], kitty[:, 1], 64)
        deck = 2 * cardsets.counts(U64(self.rules.deck_mask), U64(0), 64)  # (64,)
        wrong = np.flatnonzero((copies != deck).any(axis=0))
        if len(wrong):
            raise ValueError(
                f"a deal must hold every card of the deck twice over the hands and the kitty: "
                f"not so for {[card_name(c) if c < NUM_CARDS else c for c in wrong]}"
            )

    def _given_stock(self, hands: np.ndarray, stock: np.ndarray | None) -> np.ndarray | None:
        """Domino Hearts: ``stock`` (B, S) checked to hold exactly the undealt cards, or those
        cards in a random order."""
        if not self.engine.stock_size:
            if stock is not None:
                raise ValueError(f"{self.rules.preset} deals no stock: leave out stock")
            return None
        undealt = np.uint64(self.rules.deck_mask) & ~np.bitwise_or.reduce(hands, axis=1)
        if stock is None:
            return self._stock(undealt)
        shape = (self.num_games, self.engine.stock_size)
        stock = _integers("stock", stock, shape, "card indices in draw order", 0)
        if (stock >= NUM_CARDS).any() or (np.bitwise_or.reduce(BIT.take(stock), axis=1) != undealt).any():
            raise ValueError("every stock must hold exactly the cards not dealt, each once")
        return stock

    def restore_games(self, totals: np.ndarray, deal_index: np.ndarray, game_over: np.ndarray) -> None:
        """Put saved game progress back (e.g. to resume a tournament): totals (B, P), deals
        already played (B,) and whether each game is over. The next deal continues from it.
        A bad value is a ``TypeError`` / ``ValueError`` naming it; nothing changes then."""
        b, p = self.num_games, self.rules.num_players
        totals = np.asarray(totals) if isinstance(totals, np.ndarray) else totals
        if np.shape(totals) != (b, p):
            raise ValueError(f"totals must have shape {(b, p)}, got {np.shape(totals)}")
        totals = _integers("totals", totals, (b, p), "ints (each seat's game score)")
        deal_index = _integers("deal_index", deal_index, (b,), "ints >= 0 (deals played in each game)", 0)
        over = np.asarray(game_over)
        if over.dtype != bool:
            raise TypeError(f"game_over must be bools (one, or one per game), got {_shown(game_over)}")
        try:
            over = np.broadcast_to(over, (b,))
        except ValueError:
            raise ValueError(f"game_over must be one bool or {b}, got shape {over.shape}") from None
        self.state.totals[:] = totals
        self.state.deal_index[:] = deal_index
        self.state.game_over[:] = over

    def _stock(self, kitty: np.ndarray, rng: np.random.Generator | None = None) -> np.ndarray | None:
        """The undealt cards ``kitty`` (k,) in a random draw order from ``rng`` (default: the
        table's generator) where the rules draw from them (Domino Hearts, Smear), else None."""
        if not self.engine.stock_size:
            return None
        return stock.stock_order(kitty, self.engine.stock_size, self.rng if rng is None else rng)

    def deal(
        self,
        hands: np.ndarray,
        rest: np.ndarray | None = None,
        *,
        dealer: int | np.ndarray = 0,
        stock_order: np.ndarray | None = None,
        rng: np.random.Generator | None = None,
    ) -> None:
        """Start a new game in every game from a deal given per game, as card sets (one deck):
        ``hands`` (B, P) uint64, bit ``c`` for card ``c`` (:mod:`hearts_env.core.cards`), the hand of
        each seat; ``rest`` (B,) the cards not dealt to a hand (the kitty, widow or stock; default:
        the deck less the hands); ``dealer`` a seat, or one per game; ``stock_order`` (B, S) int64 the
        undealt cards in draw order where the rules draw from them (Smear's widow first; default:
        a random order from ``rng``, else the table's generator). Totals start at 0 and the first deal's pass
        direction applies. A deal the rules cannot have (a card twice or missing, a hand of the
        wrong size) is one ``ValueError`` naming the first such game; nothing changes then.

        ``reset(options={"hands": ...})`` gives one deal by card names to every game; this gives
        each game its own (the search agent's sampled worlds)."""
        if self.rules.decks != 1:
            raise NotImplementedError("Table.deal takes one deck's card sets; two decks: use set_position")
        b, p = self.num_games, self.rules.num_players
        hands = np.asarray(hands)
        if hands.shape != (b, p) or hands.dtype != np.uint64:
            raise ValueError(
                f"hands must be a ({b}, {p}) uint64 array of card sets, got {hands.dtype} {hands.shape}"
            )
        deck = np.bitwise_or.reduce(BIT.take(np.unique(self.rules.deck.cards)), initial=U64(0))
        dealt = np.bitwise_or.reduce(hands, axis=1)
        if rest is None:
            rest = deck & ~dealt
        else:
            rest = _card_sets("rest", np.full(b, rest, object) if np.ndim(rest) == 0 else rest, (b,))
        sizes = np.bitwise_count(hands)
        overlap = sizes.sum(axis=1) + np.bitwise_count(rest) != np.bitwise_count(dealt | rest)
        bad = np.flatnonzero(
            (sizes != self.engine.hand_size).any(axis=1) | overlap | ((dealt | rest) != deck)
        )
        if len(bad):
            g = int(bad[0])
            raise ValueError(
                f"game {g}: not a deal of {self.rules.preset} with {p} players (hands of "
                f"{sizes[g].tolist()} cards, {self.engine.hand_size} wanted; every card of the deck once "
                "in a hand or the rest)"
            )
        dealers = self._seats("dealer", dealer)
        if self.engine.stock_size:
            if stock_order is None:
                stock_order = self._stock(rest, rng)
            elif np.shape(stock_order) != (b, self.engine.stock_size):
                raise ValueError(
                    f"stock_order must be ({b}, {self.engine.stock_size}) card indices in draw order, got "
                    f"shape {np.shape(stock_order)}"
                )
            what = "card indices in draw order"
            stock_order = _integers("stock_order", stock_order, (b, self.engine.stock_size), what, 0)
            drawn = np.bitwise_or.reduce(BIT.take(stock_order.clip(max=NUM_CARDS)), axis=1)
            wrong = (stock_order >= NUM_CARDS).any(axis=1) | (drawn != rest)
            if wrong.any():
                raise ValueError(f"game {int(np.flatnonzero(wrong)[0])}: the stock is not the undealt cards")
        elif stock_order is not None:
            raise ValueError(f"{self.rules.preset} deals no stock: leave out stock_order")
        with self._unchanged_if_refused():
            self._legal = None
            hands, rest, new_games = hands.copy(), rest.copy(), np.ones(b, bool)
            self.engine.deal(self.state, self._rows, hands, rest, new_games, dealers, None, stock_order)
            self._deal_again_cancelled()

    def redeal(self, rows: np.ndarray) -> None:
        """Start the next deal (or a new game, where the game is over) in ``rows``; after a
        cancelled deal the same dealer deals again."""
        self._legal = None
        hands, kitty = self.engine.random_hands(self.rng, len(rows))
        self.engine.deal(
            self.state, rows, hands, kitty, self.state.game_over[rows].copy(), stock_cards=self._stock(kitty)
        )
        if self.engine.cancels_deals:
            self._deal_again_cancelled()

    # ------------------------------------------------------------------ stepping
    def step(self, actions: np.ndarray) -> StepResult:
        """Play one decision in every game whose deal is not over (a game whose deal ended
        ignores its action until :meth:`redeal`: deals of different lengths can finish in one
        batch). Illegal actions raise ``ValueError`` (state unchanged) unless
        ``illegal_action="terminate"``, which forfeits the offender's deal."""
        s, engine = self.state, self.engine
        actions = np.asarray(actions)
        if actions.dtype.kind not in "iu" or actions.shape not in ((self.num_games,), (self.num_games, 1)):
            raise TypeError(
                f"actions must be {self.num_games} ints (an integer array of shape ({self.num_games},)), "
                f"got {actions.dtype} of shape {actions.shape}"
            )
        actions = actions.astype(np.int64, copy=False).reshape(self.num_games)
        if not s.lockstep and (s.phase == DONE).all():
            raise ValueError("every deal is over: call reset() (or redeal()) before stepping")
        legal = self.legal()
        if self.illegal_action == "terminate":
            self._legal = None
            illegal = engine.illegal(s, actions, legal)
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

    def play_out(self, rollout: str = "random", rng: np.random.Generator | None = None) -> np.ndarray:
        """Play every game to the end of its deal with the rollout player ``rollout`` (a name of
        :data:`hearts_env.games.hearts.rollouts.ROLLOUTS`) and return the deals' rewards (B, P) (this table's
        ``reward``; 0 for games whose deal was already over), where the family's engine plays
        ``rollout`` (:attr:`Family.rollouts`; ``NotImplementedError`` otherwise). For search
        agents: no illegal-action checks, no observations."""
        if rollout not in rollouts.POLICIES:
            raise ValueError(
                f"rollout={rollout!r} is not known: choose one of {', '.join(rollouts.ROLLOUTS)}"
            )
        record = family(self.rules)
        if rollout not in record.rollouts:  # the players read the engine's bit masks (Family.rollouts)
            raise NotImplementedError(
                f"rollout={rollout!r} is not a player of the {record.title} engine, which has "
                f"{', '.join(record.rollouts) or 'none'}: roll {self.rules.preset} out with agents"
            )
        policy, rng = rollouts.POLICIES[rollout], self.rng if rng is None else rng
        s, engine = self.state, self.engine
        rewards = np.zeros((self.num_games, self.rules.num_players))
        deciding_rules = bool(engine.decision_phases)
        while True:
            live = s.phase != DONE
            if not live.any():
                return rewards
            self._legal = None
            actions = policy(engine, s, engine.legal(s), rng)
            if deciding_rules:
                deciding = np.flatnonzero(s.phase > DONE)
                if len(deciding):
                    options = engine.legal_decisions(s.take(deciding))
                    if rollout != "random" and "moon:subtract" in self.rules.decisions:
                        subtract = U64(1 << self.rules.decisions.index("moon:subtract"))
                        options = np.where((options & subtract) != 0, subtract, options)
                    chosen = random_bit(options, rng)
                    actions[deciding] = engine.num_cards + chosen
            ended = engine.step(s, np.maximum(actions, 0), check=False)
            if ended.any():
                rows = np.flatnonzero(ended)
                rewards[rows] = self.rewards_of(rows)

    def _finish(self, ended: np.ndarray, illegal: np.ndarray | None) -> StepResult:
        s = self.state
        if illegal is None:
            illegal = self._no_games
            deal_ended = ended
        else:
            deal_ended = ended | illegal
            if self.episode == "game":
                s.game_over |= illegal
        rewards = np.zeros((self.num_games, self.rules.num_players))
        if not deal_ended.any():  # the common step: nothing ended
            return StepResult(rewards, deal_ended, self._no_games, self._no_games, illegal)
        rows = np.flatnonzero(deal_ended)
        rewards[rows] = self.rewards_of(rows)
        game_ended = deal_ended & s.game_over
        episode_ended = deal_ended if self.episode == "deal" else game_ended
        return StepResult(rewards, deal_ended, game_ended, episode_ended, illegal)

    def rewards_of(self, rows: np.ndarray) -> np.ndarray:
        """Per-seat rewards of the deals just finished in ``rows``."""
        s = self.state
        points = s.deal_points[rows].astype(np.float64)
        if family(self.rules).better == "higher":  # Smear: the side's points are good
            if self.reward == "zero_sum":
                team_of = list(self.rules.team_of)
                sides = points[:, [team_of.index(t) for t in range(self.rules.num_teams)]]  # (k, T)
                others = (sides.sum(axis=1, keepdims=True) - sides) / max(self.rules.num_teams - 1, 1)
                return (sides - others)[:, list(self.rules.team_of)]
            return points
        if self.reward == "points":
            return -points
        if self.reward == "zero_sum":
            n = self.rules.num_players
            others = (points.sum(axis=1, keepdims=True) - points) / (n - 1)
            return others - points
        if self.reward == "team":
            return -s.team_points[rows].astype(np.float64)
        return s.chips[rows].copy()

    # ------------------------------------------------------------------ saving
    @property
    def settings(self) -> dict[str, str]:
        """The env settings (:data:`SETTINGS`) as keyword arguments: ``Table(rules, n,
        **table.settings)`` is a table that plays as this one does."""
        return {name: getattr(self, name) for name in SETTINGS}

    def state_dict(self) -> dict[str, Any]:
        """Everything needed to continue these games later, as plain values: numpy arrays
        (int64, uint64, float64, bool), ints and strings (no pickled objects), versioned.

        ``{"format", "version", "rules", "num_games", "reward", "episode", "illegal_action",
        "fields": {name: array}, "rng": the generator's state dict}``. Restore with
        :meth:`load_state_dict`.
        """
        s = self.state
        return {
            "format": STATE_FORMAT,
            "version": STATE_VERSION,
            "rules": self.rules.describe(),
            "num_games": self.num_games,
            **self.settings,
            "fields": {name: getattr(s, name).copy() for name in s.array_fields()},
            "rng": self.rng.bit_generator.state,
        }

    def load_state_dict(self, saved: Mapping[str, Any], source: str = "the saved state") -> None:
        """Put back what :meth:`state_dict` returned; ``source`` names it in error messages.

        Raises ``ValueError`` (nothing changed) when it is not a table state, is of a version
        not in :data:`READ_VERSIONS`, of other rules, batch size or env settings, or misses a
        field or has one of the wrong shape or dtype. Older versions load: version 2 and 1 kept
        ``episode`` and ``illegal_action`` among the saved rules, and version 1's fields are
        upgraded by the engine (:meth:`~hearts_env.core.engine.CardEngine.upgrade_saved`).
        """

        def refuse(why: str) -> ValueError:
            return ValueError(f"{source} is not a usable table state: {why}")

        if not isinstance(saved, Mapping) or saved.get("format") != STATE_FORMAT:
            raise refuse(f"expected a dict with format {STATE_FORMAT!r}")
        version = saved.get("version")
        if version not in READ_VERSIONS:
            readable = f"{', '.join(map(str, READ_VERSIONS[:-1]))} and {READ_VERSIONS[-1]}"
            raise refuse(f"version {version!r}, this code reads versions {readable}")
        rules = saved.get("rules")
        if not isinstance(rules, Mapping):
            raise refuse(f"its 'rules' should be the rules' description (a dict), got {type(rules).__name__}")
        # Versions 1 and 2 kept episode and illegal_action among the rules.
        where = saved if version == STATE_VERSION else {**rules, "reward": saved.get("reward")}
        settings = {name: where.get(name) for name in SETTINGS}
        if not self.rules.matches(rules):  # a description of any version (env settings left out)
            raise refuse("it was saved with other rules")
        if saved.get("num_games") != self.num_games or settings != self.settings:
            raise refuse(
                f"it holds {saved.get('num_games')!r} games with {_shown_settings(settings)}, not "
                f"{self.num_games} with {_shown_settings(self.settings)}"
            )
        fields_ = saved.get("fields")
        if isinstance(fields_, Mapping) and version in _UPGRADED_FIELDS:
            fields_ = self.engine.upgrade_saved(dict(fields_), self.num_games)
        names = self.state.array_fields()
        if not isinstance(fields_, Mapping) or set(fields_) != set(names):
            have = set(fields_) if isinstance(fields_, Mapping) else set()
            raise refuse(f"fields missing {sorted(set(names) - have)}, unknown {sorted(have - set(names))}")
        arrays = {}
        for name in names:
            like, value = getattr(self.state, name), fields_[name]
            if not isinstance(value, np.ndarray) or value.shape != like.shape or value.dtype != like.dtype:
                got = (
                    f"{value.dtype} {value.shape}" if isinstance(value, np.ndarray) else type(value).__name__
                )
                raise refuse(f"field {name!r} should be {like.dtype} {like.shape}, got {got}")
            arrays[name] = value
        rng = np.random.default_rng()
        try:
            rng.bit_generator.state = saved.get("rng")
        except (TypeError, ValueError, KeyError) as error:
            raise refuse(f"bad generator state ({error})") from None
        for name, value in arrays.items():
            getattr(self.state, name)[...] = value
        self.state.sync()
        self.rng = rng
        self._legal = None

    # ------------------------------------------------------------------ views
    # Read-only views of the games: what the envs, training and tournaments read, so that none
    # of them depends on the engine's state record.
    @property
    def deal_over(self) -> np.ndarray:
        """(B,) bool: the game's deal is over (it waits for :meth:`redeal`)."""
        return self.state.phase == DONE

    current_player = _StateView(
        "current", "(B,) int64: the seat to act (the last to act once the deal is over)."
    )
    deal_points = _StateView(
        "deal_points", "(B, P) int64: the last finished deal's points (moon, bonus applied)."
    )
    team_points = _StateView(
        "team_points", "(B, P) int64: each seat's team's points of the last deal (own alone)."
    )
    totals = _StateView("totals", "(B, P) int64: game totals (after the last finished deal).")
    deal_index = _StateView("deal_index", "(B,) int64: deals finished before the current one in each game.")
    game_over = _StateView("game_over", "(B,) bool: the last finished deal ended its game.")
    moon_shooter = _StateView("moon_shooter", "(B,) int64: who shot the moon in the last deal, -1 if nobody.")
    chips = _StateView("chips", "(B, P) float64: the settlement of the last finished deal (0 without one).")
    cancelled = _StateView("cancelled", "(B,) bool: the last deal was cancelled (first_trick_all_penalty).")
    trick_number = _StateView("trick_number", "(B,) int64: tricks completed in the current deal.")
    last_winner = _StateView(
        "last_winner",
        "(B,) int64: who won (took) the last finished trick of the deal, -1 before the first trick "
        "ends or when it was cancelled (see :attr:`last_cancelled`). Not always the next leader: "
        "a winner left without cards hands the lead on (Domino Hearts, Smear).",
    )

    @property
    def last_cancelled(self) -> np.ndarray:
        """(B,) bool: the last finished trick was cancelled (two decks, Cancellation Hearts: it
        went to nobody and its leader leads again); always False where tricks never cancel."""
        cancelled = getattr(self.state, "last_cancelled", None)
        return self._no_games if cancelled is None else _read_only(cancelled)

    @property
    def num_actions(self) -> int:
        """A: the number of actions of the rules (the card slots, then the named decisions),
        the width of :meth:`action_mask`."""
        return self.engine.num_actions

    @property
    def bid_values(self) -> np.ndarray | None:
        """(A + 1,) int64: each action's value as a bid (0 a pass, -1 not a bid; the last entry
        stands for no action), in games whose deals are played for a contract; None in others."""
        values = getattr(self.engine, "bid_value", None)
        return None if values is None else _read_only(values)

    def shuffled_hands(self, rng: np.random.Generator, count: int) -> tuple[np.ndarray, np.ndarray]:
        """``count`` random deals for :meth:`deal_masks`: the hand masks (count, P) and the
        undealt cards' masks (count,) (two decks: both words on a last axis), from
        ``rng.permuted``: the shuffle a tournament publishes, so that its deals replay."""
        return self.engine.shuffled_hands(rng, count)

    def observe(
        self, seats: np.ndarray | None = None, out: np.ndarray | None = None, constants: bool = True
    ) -> np.ndarray:
        """Observations (B, D) of ``seats`` (default: the acting seats), into ``out`` if given
        (``constants=False``: leave the pieces that never change, ``card_values``, as they are
        in ``out``)."""
        seats = self.state.current if seats is None else np.asarray(seats, dtype=np.int64)
        return self.observer(self.state, seats, out, constants)

    def encode(
        self,
        obs_format: str,
        seats: np.ndarray | None = None,
        out: np.ndarray | None = None,
        tail: np.ndarray | None = None,
        constants: bool = True,
    ) -> tuple[np.ndarray, np.ndarray]:
        """The compact observation of ``seats`` (default: the acting seats) in ``obs_format``
        ``"uint8"`` (B, bit_count) or ``"packed"`` (B, words) uint64, and its float32 tail;
        :func:`hearts_env.unpack` gives back exactly :meth:`observe` (:mod:`hearts_env.core.formats`)."""
        if obs_format not in ("uint8", "packed"):
            raise ValueError(
                f"encode() makes the 'uint8' or 'packed' format, got {obs_format!r}; see observe()"
            )
        seats = self.state.current if seats is None else np.asarray(seats, dtype=np.int64)
        return self.observer.encode(self.state, seats, obs_format, out, tail, constants)

    def legal(self) -> np.ndarray:
        """(B,) uint64 legal cards of the acting seats (cached until the state changes)."""
        if self._legal is None:
            self._legal = self.engine.legal(self.state)
        return self._legal

    def explain(self, game: int, action: int) -> str:
        """Why ``action`` is not legal for the acting seat of ``game`` (for error messages)."""
        return self.engine.explain_illegal(self.state, game, action)

    def legal_decisions(self) -> np.ndarray:
        """(B,) uint64 legal decisions other than cards (bit k = ``rules.decisions[k]``)."""
        return self.engine.legal_decisions(self.state)

    def action_mask(self) -> np.ndarray:
        """int8 (B, A) legal actions of the acting seats: the card slots, then the decisions
        (all zero in finished games)."""
        cards = unpack(self.legal(), self.engine.num_cards)
        if not self.engine.decision_phases:
            return cards.view(np.int8)
        decisions = unpack(self.legal_decisions(), len(self.rules.decisions))
        return np.concatenate([cards, decisions], axis=1).view(np.int8)

    def game_info(self, rows: Sequence[int] | np.ndarray) -> dict[str, np.ndarray]:
        """Deal points, totals and game-end flags of ``rows`` (for infos)."""
        return {**self._infos(_DEAL_INFOS, rows), **self._family_info(rows)}

    def _infos(self, names: Mapping[str, str], rows: Sequence[int] | np.ndarray) -> dict[str, np.ndarray]:
        """Copies of the state fields ``names`` (info key -> field) of ``rows``."""
        return {key: getattr(self.state, name)[rows].copy() for key, name in names.items()}

    def _family_info(self, rows: Sequence[int] | np.ndarray) -> dict[str, np.ndarray]:
        """The game family's own end-of-deal infos of ``rows`` (:attr:`Family.deal_info`)."""
        record = family(self.rules)
        return {} if record.deal_info is None else record.deal_info(self.state, rows)
