"""The rules model: what every trick-taking game has, plus the family's own options record.

:class:`Rules` holds the rules every family shares (players, deck, teams, target, deals) and
``options``, the family's own frozen record (a subclass of :class:`Options`, declared in the
family's folder: ``hearts_env.games.<family>.options``) with its own checks. Every variant is a
:mod:`preset <hearts_env.presets>` — a named set of values — never a subclass.
``make_rules("black_maria", num_players=4, moon="new")`` merges options over a preset, splits
them into the common rules and the family's, and returns a validated :class:`Rules`. The names
and values are public: the options table of ``docs/rules.md`` lists them with their docstrings.

This module names no family: the registry (:mod:`hearts_env.games`) tells it each family's
options record (:data:`FAMILY_OPTIONS`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, fields
from functools import cached_property
from typing import Any, ClassVar, Generic, TypeVar

import numpy as np

from hearts_env.core.cards import NUM_STANDARD_CARDS, SUIT_MASKS, Deck, card_name, parse_card

PASS_DIRECTIONS = ("left", "right", "across", "hold")
"""Where passed cards go (``hold``: no pass); :meth:`Rules.pass_offset` gives the seats between."""
SUIT_LETTERS = "CDHS"
QUEEN_OF_SPADES = parse_card("QS")
POINTS_LIMIT = 1000
"""The largest card value (either sign) a rules set may give; beyond it values are surely a typo."""
RULES_VERSION = 2
"""The form of :meth:`Rules.describe`: version 2 holds the common rules and the family's options
(with this number under ``"rules_version"``); version 1 (no number) held every field of both
families and the env settings ``episode`` and ``illegal_action`` (:func:`upgrade_description`)."""
ENV_SETTINGS = ("episode", "illegal_action")
"""What version 1's rules held that belongs to the env and the :class:`~hearts_env.table.Table`."""

FAMILY_OPTIONS: dict[str, type[Options]] = {}
"""Game family (``Rules.game``) -> its options record; the registry (:mod:`hearts_env.games`)
fills it as it registers families."""
GAMES = FAMILY_OPTIONS.keys()
"""The game families that rules may name (a live view: a family registered later is in it)."""


def check_choice(name: str, value: object, allowed: tuple[str, ...]) -> None:
    """``TypeError`` unless ``value`` is a string, ``ValueError`` unless it is one of ``allowed``."""
    if not isinstance(value, str):
        raise TypeError(f"{name}={value!r} must be a string: one of {', '.join(allowed)}")
    if value not in allowed:
        raise ValueError(f"{name}={value!r} is not known: choose one of {', '.join(allowed)}")


def as_int(name: str, value: object, allow_none: bool = False) -> int | None:
    """``value`` as a plain int (numpy integers welcome); ``TypeError`` for bools, floats
    (even 3.0), strings and everything else."""
    if value is None and allow_none:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        kind = "an int or None" if allow_none else "an int"
        raise TypeError(f"{name} must be {kind}, got {type(value).__name__} {value!r}")
    return int(value)


def as_bool(name: str, value: object) -> bool:
    """``value`` as a plain bool (``numpy.bool_`` welcome); ``TypeError`` for anything else, so
    that ``"no"`` or ``0`` cannot silently turn a rule on or off."""
    if not isinstance(value, (bool, np.bool_)):
        raise TypeError(f"{name} must be True or False, got {type(value).__name__} {value!r}")
    return bool(value)


def _check_values(record: object, ints: Mapping[str, tuple[int, int, bool]], bools: tuple[str, ...],
                  tuples: tuple[str, ...]) -> None:  # fmt: skip
    """Every named field of the frozen ``record`` of the right type (numpy scalars become plain
    ints and bools, lists tuples) and every number in its range: ``TypeError`` / ``ValueError``
    naming the field and the value."""
    for name in bools:
        object.__setattr__(record, name, as_bool(name, getattr(record, name)))
    for name, (low, high, optional) in ints.items():
        value = as_int(name, getattr(record, name), optional)
        if value is not None and not low <= value <= high:
            raise ValueError(f"{name}={value!r} is out of range {low}..{high}")
        object.__setattr__(record, name, value)
    for name in tuples:
        value = getattr(record, name)
        if isinstance(value, (str, bytes)) or not isinstance(value, (tuple, list)):
            raise TypeError(f"{name} must be a tuple, got {type(value).__name__} {value!r}")
        object.__setattr__(record, name, tuple(value))


T = TypeVar("T")


class rules_fact(Generic[T]):  # noqa: N801 (used as a decorator, like cached_property)
    """A fact a family derives from the whole rules (its options with the deck and the players),
    read as ``rules.<name>`` and computed once per rules set: ``@rules_fact`` over a method
    ``(options, rules) -> value`` of an :class:`Options` record."""

    def __init__(self, compute: Callable[[Any, Rules], T]) -> None:
        self.compute = compute
        self.__doc__ = compute.__doc__
        self.name = compute.__name__

    def __get__(self, record: object, owner: type | None = None) -> rules_fact[T]:
        if record is not None:
            raise AttributeError(f"{self.name} is a fact of the whole rules: read rules.{self.name}")
        return self


@dataclass(frozen=True)
class Options:
    """A game family's own options: the base of each family's frozen record (in the family's
    folder, ``hearts_env.games.<family>.options``), which declares them as fields with a
    docstring each.

    A record checks its values' types on construction; :meth:`check` checks them against the
    common rules. The facts the engines and the generic code read (:attr:`Rules.hand_size`,
    :attr:`Rules.decisions`, :attr:`Rules.phases` …) are methods a family overrides; its own
    facts are :class:`rules_fact` methods, read as ``rules.<name>``.
    """

    title: ClassVar[str] = "this family"
    """The family's name in messages."""
    bools: ClassVar[tuple[str, ...]] = ()
    """The yes/no options."""
    ints: ClassVar[Mapping[str, tuple[int, int, bool]]] = {}
    """The int options: name -> (smallest, largest, None allowed)."""
    tuples: ClassVar[tuple[str, ...]] = ()
    """The options that hold tuples (lists are welcome and become tuples)."""
    choices: ClassVar[Mapping[str, tuple[str, ...]]] = {}
    """The string options and their values, checked in this order."""
    value_texts: ClassVar[Mapping[str, str]] = {}
    """How the options table (docs/rules.md) describes the values of the options that are not
    choices, yes/no or ints."""

    def __post_init__(self) -> None:
        _check_values(self, self.ints, self.bools, self.tuples)

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """The options' names, in declaration order."""
        return tuple(f.name for f in fields(cls))

    @classmethod
    def default(cls, name: str) -> Any:
        """The value option ``name`` has where nobody sets it."""
        f = next(f for f in fields(cls) if f.name == name)
        return f.default_factory() if f.default is MISSING else f.default  # type: ignore[misc]

    @classmethod
    def complete(cls, values: dict[str, Any], given: Mapping[str, Any]) -> None:
        """Set the option values that follow from the others (``values``: the common rules and
        the family's options by name, not validated yet) where ``given`` (the caller's options)
        names none. Nothing to set by default."""

    @classmethod
    def keeps_leftover(cls, values: Mapping[str, Any]) -> bool:
        """Whether the options ``values`` (not validated yet) set the cards that do not divide
        among the players aside (a kitty) rather than have them removed: ``make_rules`` then
        removes none unless asked. No by default."""
        return False

    @classmethod
    def deals_whole_deck(cls, values: Mapping[str, Any]) -> bool:
        """Whether the options ``values`` (not validated yet) deal the whole deck evenly, so that
        a removal order takes out the cards that do not divide. Yes by default."""
        return True

    @classmethod
    def idle(cls, values: Mapping[str, Any]) -> dict[str, str]:
        """The options that cannot matter under ``values`` (the common rules and the family's
        options by name, not validated yet: only equality is used), each with the reason; such an
        option keeps its default. None by default."""
        return {}

    def check(self, rules: Rules) -> None:
        """``ValueError`` naming the first option that does not go with the rest of ``rules``;
        the base refuses an option that cannot matter (:meth:`idle`) but was set."""
        values = rules.values()
        idle = self.idle(values)
        given = [name for name in idle if values[name] != self.default(name)]
        if given:
            raise ValueError(idle_message(given, idle, rules.preset))

    def describe_value(self, name: str, value: Any) -> Any:
        """Option ``name``'s value as a plain value for logs and JSON (card names for cards)."""
        return value

    # The facts every family has: generic code reads them from the rules.
    def hand_size(self, rules: Rules) -> int:
        """Cards dealt to each player: the whole deck, evenly."""
        return len(rules.deck) // rules.num_players

    def kitty_size(self, rules: Rules) -> int:
        """Cards left face down for the first trick's winner."""
        return 0

    def stock_size(self, rules: Rules) -> int:
        """Cards of the stock (in draw order) at the start of a deal."""
        return 0

    def deals_stock(self, rules: Rules) -> bool:
        """Whether a deal leaves cards in draw order that a fixed deal may give (``stock``)."""
        return False

    def deals_kitty(self, rules: Rules) -> bool:
        """Whether a deal sets cards aside that a fixed deal may give (``kitty`` or ``widow``)."""
        return False

    def decisions(self, rules: Rules) -> tuple[str, ...]:
        """The named decisions other than cards, in action order."""
        return ()

    def phases(self, rules: Rules) -> tuple[str, ...]:
        """The phases of a deal, as the observation's ``phase`` piece names them."""
        return ("playing",)

    def pass_direction(self, rules: Rules, deal_index: int) -> str:
        """The pass direction of the deal with this index: no pass."""
        return "hold"

    def passes(self, rules: Rules) -> bool:
        """Whether players pass cards before the play."""
        return False

    def pays_chips(self, rules: Rules) -> bool:
        """Whether a settlement pays chips besides the points."""
        return False

    def has_moon(self, rules: Rules) -> bool:
        """Whether a player can shoot the moon (take every penalty card)."""
        return False

    def bid_partnership(self, rules: Rules) -> bool:
        """Whether a bid makes a partnership for the deal (the bidder and a silent partner)."""
        return False

    def duplicate_problem(self, rules: Rules) -> str | None:
        """Why the same cards dealt again to another seating would not be the same deal (None:
        they would: duplicate deals are fair)."""
        return None


def idle_message(names: list[str], idle: Mapping[str, str], preset: str) -> str:
    """One error line for options that cannot matter: each name with its reason."""
    reasons: dict[str, list[str]] = {}
    for name in names:
        reasons.setdefault(idle[name], []).append(name)
    said = "; ".join(f"{', '.join(group)}: {why}" for why, group in reasons.items())
    return f"{said} ({preset} has no use for them: leave them out)"


_INTS: dict[str, tuple[int, int, bool]] = {
    # name: (smallest, largest, None allowed)
    "num_players": (3, 11, False),
    "decks": (1, 2, False),
    "jokers": (0, 2, False),
    "target_score": (1, 1_000_000, False),
    "max_deals": (1, 1_000_000, True),
}


class FamilyFact(Generic[T]):
    """A fact of the rules that the family's options record computes (``options.<name>(rules)``):
    read as an attribute of :class:`Rules`, computed on first use and kept, as a
    ``cached_property`` is (the rules are frozen, so it cannot change)."""

    def __init__(self, doc: str) -> None:
        self.__doc__ = doc

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def __get__(self, rules: Rules | None, owner: type) -> T:
        if rules is None:
            return self  # type: ignore[return-value]  # the class's attribute: the descriptor itself
        value: T = getattr(rules.options, self.name)(rules)
        rules.__dict__[self.name] = value  # the instance's value wins from now on (no __set__ here)
        return value


@dataclass(frozen=True)
class Rules:
    """The rules of a deal and a game: what every trick-taking family has, and ``options``, the
    family's own record (docs/rules.md).

    Build one with :func:`hearts_env.presets.make_rules`; constructing it directly is fine too
    (``Rules(game=name, options=TheFamilysOptions(...))``; ``options`` left out: the family's
    defaults) and runs the same validation. Card-valued fields hold card indices.

    A family's option reads as an attribute of the rules too (``rules.pass_count`` is
    ``rules.options.pass_count``), and so do its :class:`rules_fact` facts; a name that is
    neither common nor the family's raises ``AttributeError`` naming the family.
    """

    preset: str = ""
    """Name of the preset these rules came from (informational)."""
    num_players: int = 4
    """Players at the table, seats 0..n-1 clockwise."""
    game: str = ""
    """The game family (one of :data:`GAMES`), whose options ``options`` holds (left out: the
    family of ``options``)."""
    decks: int = 1
    """Decks shuffled together: 1, or 2 (every card twice; the family says what two identical
    cards in one trick do, and whether it has a two-deck game)."""
    removed: tuple[int, ...] = ()
    """Cards taken out of the deck (so that hands are equal, or before a widow is set aside;
    with two decks both copies)."""
    jokers: int = 0
    """Jokers added to the deck (the family says what they do)."""
    teams: tuple[tuple[int, ...], ...] = ()
    """Fixed partnerships (seat tuples), e.g. ``((0, 2), (1, 3))``; empty: none."""
    target_score: int = 100
    """The game ends after a deal in which someone reached this total."""
    max_deals: int | None = None
    """The game ends after this many deals (if it has not ended by target first)."""
    options: Options = None  # type: ignore[assignment]  # None: the family's defaults
    """The family's own options: its :class:`Options` record."""

    def __post_init__(self) -> None:
        _check_values(self, _INTS, (), ("removed",))
        if not isinstance(self.preset, str):
            raise TypeError(f"preset must be a string, got {self.preset!r}")
        object.__setattr__(self, "removed", tuple(as_int("a removed card", c) for c in self.removed))
        self._check_family()
        self._check_teams()
        if len(set(self.removed)) != len(self.removed):
            raise ValueError(f"removed cards repeat: {[card_name(c) for c in self.removed]}")
        self.options.check(self)

    def _check_family(self) -> None:
        """``game`` a registered family and ``options`` its record (the defaults where None)."""
        if self.options is not None and not isinstance(self.options, Options):
            raise TypeError(f"options must be a family's options record, got {self.options!r}")
        if not self.game and self.options is not None:
            named = [game for game, record in FAMILY_OPTIONS.items() if type(self.options) is record]
            object.__setattr__(self, "game", named[0] if named else "")
        if not self.game:
            raise ValueError(f"rules need a game family: game= one of {', '.join(GAMES)}, or its options")
        check_choice("game", self.game, tuple(GAMES))
        record = FAMILY_OPTIONS[self.game]
        if self.options is None:
            object.__setattr__(self, "options", record())
        elif type(self.options) is not record:
            raise TypeError(
                f"options must be {record.__name__} for game={self.game!r}, got {type(self.options).__name__}"
            )

    def _check_teams(self) -> None:
        n = self.num_players
        if not isinstance(self.teams, (tuple, list)) or not all(
            isinstance(t, (tuple, list)) for t in self.teams
        ):
            raise TypeError(
                f"teams must be a tuple of seat tuples such as ((0, 2), (1, 3)), got {self.teams!r}"
            )
        object.__setattr__(self, "teams", tuple(tuple(t) for t in self.teams))
        seats = sorted(as_int("a team seat", seat) for team in self.teams for seat in team)
        if self.teams and seats != list(range(n)):
            raise ValueError(f"teams={self.teams!r} must hold every seat 0..{n - 1} exactly once")
        if len(self.teams) == 1:
            raise ValueError(
                f"teams={self.teams!r} is one team of every seat: a team game needs at least two teams "
                "(or no teams: teams=())"
            )

    def __getattr__(self, name: str) -> Any:
        """The family's option or :class:`rules_fact` ``name`` (``rules.pass_count``), kept once
        read; ``AttributeError`` naming the family for a name it does not have."""
        # Dunder names and ``options`` itself are never the family's: pickling and copying ask
        # for them on an instance that has no fields yet.
        if name.startswith("__") or name == "options" or "options" not in self.__dict__:
            raise AttributeError(name)
        record = self.options
        found = getattr(type(record), name, None)
        if isinstance(found, rules_fact):
            value = found.compute(record, self)
        elif name in record.names() or isinstance(found, property):
            value = getattr(record, name)
        else:
            raise AttributeError(
                f"{name!r} is not a rule of {self.game} rules: neither a common rule nor a "
                f"{record.title} option ({', '.join(record.names())})"
            )
        self.__dict__[name] = value
        return value

    def common(self) -> dict[str, Any]:
        """The common rules by name (every field but ``options``)."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "options"}

    def values(self) -> dict[str, Any]:
        """Every rule by name: the common ones, then the family's options."""
        return {**self.common(), **{name: getattr(self.options, name) for name in self.options.names()}}

    # Derived facts: computed from the (frozen) rules once, on first use; the family's record
    # computes those that differ between families.
    @cached_property
    def deck(self) -> Deck:
        """The cards in play: the standard cards less ``removed``, plus the jokers, once per deck."""
        return Deck(removed=self.removed, jokers=self.jokers, copies=self.decks)

    @cached_property
    def deck_mask(self) -> int:
        """Bitmask of every card in play (each identity once, however many decks)."""
        return self.deck.mask

    hand_size = FamilyFact[int](
        """Cards dealt to each player."""
    )

    kitty_size = FamilyFact[int](
        """Cards left face down for the first trick's winner (0 without a kitty)."""
    )

    stock_size = FamilyFact[int](
        """Cards of the stock at the start of a deal (undealt cards in draw order), else 0."""
    )

    deals_stock = FamilyFact[bool](
        """Whether a deal leaves cards in draw order that a fixed deal may give (``stock``)."""
    )

    deals_kitty = FamilyFact[bool](
        """Whether a deal sets cards aside that a fixed deal may give (``kitty``, or its other
        name ``widow``)."""
    )

    @cached_property
    def card_slots(self) -> int:
        """Card actions (and card slots of the observation): 52, plus one per joker."""
        return NUM_STANDARD_CARDS + self.jokers

    decisions = FamilyFact[tuple[str, ...]](
        """The named decisions other than cards (docs/rules.md), in action order."""
    )

    @cached_property
    def action_names(self) -> tuple[str, ...]:
        """One name per action of the ``Discrete`` action space: the card slots by
        ``card_name`` (``"2C"`` … ``"AS"``, ``"JK1"``, ``"JK2"``), then :attr:`decisions`."""
        return tuple(card_name(c) for c in range(self.card_slots)) + self.decisions

    phases = FamilyFact[tuple[str, ...]](
        """The phases of a deal this variant has, as the observation's ``phase`` piece names
        them (:mod:`hearts_env.core.phases`), in the order the family lists them."""
    )

    passes = FamilyFact[bool](
        """Whether players pass cards before the play."""
    )

    pays_chips = FamilyFact[bool](
        """Whether a settlement pays chips besides the points (``reward="chips"``)."""
    )

    has_moon = FamilyFact[bool](
        """Whether a player can shoot the moon."""
    )

    bid_partnership = FamilyFact[bool](
        """Whether a bid makes a partnership for the deal (the bidder and a silent partner): a
        partnership game without fixed teams."""
    )

    duplicate_problem = FamilyFact[str | None](
        """Why these rules cannot be played as duplicate deals (None: they can)."""
    )

    @cached_property
    def num_teams(self) -> int:
        """Sides at the table: the fixed teams, else every player alone."""
        return len(self.teams) if self.teams else self.num_players

    @cached_property
    def team_of(self) -> tuple[int, ...]:
        """The team index of each seat (its own seat number where there are no fixed teams)."""
        team = list(range(self.num_players))
        for index, seats in enumerate(self.teams):
            for seat in seats:
                team[seat] = index
        return tuple(team)

    def pass_offset(self, direction: str) -> int:
        """Seats between a passer and his receiver (0 for hold)."""
        n = self.num_players
        return {"left": 1, "right": n - 1, "across": n // 2, "hold": 0}[direction]

    def pass_direction(self, deal_index: int) -> str:
        """Direction of the deal with this index (0 = first deal of the game; ``"hold"`` in a
        family without passing)."""
        return self.options.pass_direction(self, deal_index)

    @cached_property
    def lowest_club(self) -> int:
        """The lowest club in play (-1: none)."""
        clubs = self.deck_mask & SUIT_MASKS[0]
        return (clubs & -clubs).bit_length() - 1

    def describe(self) -> dict[str, object]:
        """The rules as plain values (card names instead of indices), for logs and JSON: the
        version of this form (:data:`RULES_VERSION`), the common rules, the family's options."""
        out: dict[str, object] = {"rules_version": RULES_VERSION}
        for name, value in self.common().items():
            out[name] = [card_name(c) for c in value] if name == "removed" else value
        for name in self.options.names():
            out[name] = self.options.describe_value(name, getattr(self.options, name))
        return out

    def differences(self, saved: Mapping[str, Any]) -> list[str]:
        """The rules (by name) in which a saved :meth:`describe` (of any version: it is
        upgraded, :func:`upgrade_description`) differs from these; empty: the same rules."""
        old, new = _plain(upgrade_description(saved, self.game)), _plain(self.describe())
        if not isinstance(old, dict):
            return sorted(new)
        return sorted(name for name in old.keys() | new.keys() if old.get(name) != new.get(name))

    def matches(self, saved: Mapping[str, Any]) -> bool:
        """Whether a saved :meth:`describe` (of any version) describes these rules: what every
        place that compares saved rules with the present ones asks (states, checkpoints,
        tournament records)."""
        return not self.differences(saved)


def upgrade_description(saved: Mapping[str, Any], game: str | None = None) -> Mapping[str, Any]:
    """A rules description of an earlier version in today's form: version 1 (no
    ``rules_version``: every field of both families, idle ones at neutral values, and the env
    settings) keeps the common rules and its family's options (``game``: the family of a
    description so old that it names none). The env settings are never rules
    (:data:`ENV_SETTINGS`): left out of any version. Anything else is returned as is."""
    if not isinstance(saved, Mapping):
        return saved
    if "rules_version" in saved:
        return {k: v for k, v in saved.items() if k not in ENV_SETTINGS}
    record = FAMILY_OPTIONS.get(saved.get("game", game))  # type: ignore[arg-type]
    if record is None:
        return saved
    keep = {f.name for f in fields(Rules) if f.name != "options"} | set(record.names())
    return {"rules_version": RULES_VERSION, **{k: v for k, v in saved.items() if k in keep}}


def _plain(value: Any) -> Any:
    """``value`` as JSON gives it back (tuples as lists, keys as strings)."""
    return json.loads(json.dumps(value))
