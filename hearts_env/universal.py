"""The universal layout: one observation and one action vocabulary for every configuration of a
game family, so that one network's input and output fit them all.

A configuration's own observation (:mod:`hearts_env.games.hearts.observation`,
:mod:`hearts_env.games.smear.observation`) is sized to its table: ``played_by_seat`` is (P, C),
``decisions`` holds the variant's own decisions. The universal layout of a family
(:func:`vocabulary`) holds every piece any of its configurations has, each axis padded or
mapped by name (the family's ``piece_axes``):

==============  =========================================================================
axis            in the universal layout
==============  =========================================================================
``seat``        the family's largest table (11 in the Hearts family, 8 in Smear); relative
                seat r of an n-player table is slot r, slots n and above stay 0
``card``        54 slots: the 52 cards, then JK1, JK2 (the card index, as everywhere)
``decision``,   the union, in order of first appearance, of every configuration's names
``phase``,      (the decisions, phases, Smear's bids and scoring categories): a name keeps
``bid``,        its slot in every configuration
``category``
others          the same in every configuration (suits, pass directions, one flag)
==============  =========================================================================

and three pieces that say which configuration it is, constant through a game:

- ``seats`` (S,): 1 for each relative seat at the table (the table size);
- ``deck`` (54,): 1 for each card in play (removed cards and absent jokers 0);
- ``rules`` (R,): the rule options that differ between the family's configurations, one entry per
  value (``"moon=new"``, ``"bidding=auction"``, ``"pass_directions:left"``; a yes/no option is one
  entry, 1 for yes). An option value that no preset uses leaves its option's entries 0.

The action vocabulary is the card slots then every decision name of the family
(:attr:`Vocabulary.actions`); a configuration's mask is 0 outside its own actions.
:class:`UniversalView` converts between a configuration's own observation, mask and actions
and the universal ones with one gather each; the engine and every agent keep the configuration's
own layout. The vocabulary is built from every preset of the family at every player count, with
its readings and versions (:func:`configurations`), so every configuration those reach fits;
options that reach a decision none of them has (``UniversalView`` says which) do not.

Use it through the envs (``hearts_env.env(preset, layout="universal")``,
``hearts_env.vector.HeartsVectorEnv(..., layout="universal")``) or directly::

    view = universal_view(rules)
    x = view.observation(table.observe())        # (B, D_universal) float32
    m = view.mask(table.action_mask())           # (B, A_universal) int8
    table.step(view.action(universal_actions))   # back to the configuration's action indices
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import gymnasium
import numpy as np

from hearts_env.core.cards import card_name
from hearts_env.core.layouts import Layout
from hearts_env.core.rules import Rules
from hearts_env.games import FAMILIES, family
from hearts_env.games import layout as native_layout
from hearts_env.presets import PRESETS, make_rules, preset_names

CARD_SLOTS = 54
"""Card slots of the universal layout: the 52 cards, then JK1 and JK2."""

LAYOUTS = ("native", "universal")
"""The observation layouts of the envs: the configuration's own, or its family's universal one."""

CONSTANT_PIECES = ("seats", "deck", "rules")
"""The universal layout's own pieces, after the family's: they say which configuration it is."""

_NOT_FEATURES = frozenset(
    {"preset", "num_players", "game", "removed", "card_points", "teams", "categories", "max_deals",
     "target_score"}
)  # fmt: skip
"""Rules fields that are not ``rules`` entries: shown by other pieces (``deck``, ``card_values``,
``partners``, ``categories``, ``scores`` scaled by the target), or not about the play of a deal."""


def check_layout(value: Any) -> str:
    """``value`` if it is one of :data:`LAYOUTS`, else a ``ValueError`` naming them."""
    if not isinstance(value, str) or value not in LAYOUTS:
        raise ValueError(f"layout must be one of {', '.join(map(repr, LAYOUTS))}, got {value!r}")
    return value


@lru_cache(maxsize=4)
def configurations(game: str) -> tuple[Rules, ...]:
    """Every configuration the vocabulary of family ``game`` covers: each preset at each player
    count, as it comes and in each of its readings and versions that the count allows."""
    found: list[Rules] = []
    for name in preset_names(game):
        spec = PRESETS[name]
        for n in spec.counts:
            variants: list[dict[str, Any]] = [{}]
            variants += [{"reading": r} for r in spec.readings]
            variants += [{"version": v} for v in spec.versions]
            for extra in variants:
                try:
                    found.append(make_rules(name, num_players=n, **extra))
                except ValueError:  # a reading or version this player count does not allow
                    continue
    return tuple(found)


def _features(rules: Rules) -> list[str]:
    """The ``rules`` entries that are 1 for ``rules`` (see :data:`_NOT_FEATURES`)."""
    on = []
    for name, value in rules.values().items():
        if name in _NOT_FEATURES:
            continue
        if isinstance(value, bool):
            on += [name] if value else []
        elif isinstance(value, tuple):
            on += [f"{name}:{item}" for item in value]
        else:
            on.append(f"{name}={value}")
    return on


def _feature_names(rules_list: tuple[Rules, ...]) -> tuple[str, ...]:
    """The entries that tell the configurations apart: every value of an option that takes more
    than one across them (a yes/no option: one entry)."""
    seen: dict[str, set[Any]] = {}
    for rules in rules_list:
        for name, value in rules.values().items():
            if name not in _NOT_FEATURES:
                seen.setdefault(name, set()).add(value)
    names: list[str] = []
    for rules in rules_list:
        for entry in _features(rules):
            option = entry.split("=")[0].split(":")[0]
            if len(seen[option]) > 1 and entry not in names:
                names.append(entry)
    for name, values in seen.items():  # a yes/no option that is never yes in the first configurations
        if len(values) > 1 and values <= {True, False} and name not in names:
            names.append(name)
    return tuple(names)


def _union(lists: Any) -> tuple[str, ...]:
    out: list[str] = []
    for names in lists:
        out += [name for name in names if name not in out]
    return tuple(out)


@dataclass(frozen=True, eq=False)
class Vocabulary:
    """The universal observation layout and action vocabulary of one game family."""

    game: str
    """The family (``Rules.game``)."""
    players: int
    """Slots of a ``seat`` axis: the family's largest table."""
    axes: dict[str, tuple[str, ...]]
    """The names along each named axis (``decision``, ``phase``, ``bid``, ``category``)."""
    actions: tuple[str, ...]
    """One name per universal action: the 54 card slots, then every decision of the family."""
    features: tuple[str, ...]
    """The names of the ``rules`` piece's entries."""
    layout: Layout
    """The universal layout (float32; no packed form)."""
    low: np.ndarray
    """(D,) float32: the least value of each entry in any configuration of the family."""
    high: np.ndarray
    """(D,) float32: the largest."""

    @property
    def size(self) -> int:
        """Length of the universal observation."""
        return self.layout.size

    @property
    def num_actions(self) -> int:
        """Actions of the universal action space."""
        return len(self.actions)


@lru_cache(maxsize=4)
def vocabulary(game: str) -> Vocabulary:
    """The universal layout and actions of family ``game`` (``"hearts"`` or ``"smear"``),
    built once from :func:`configurations`."""
    record = FAMILIES[game]
    piece_axes = record.piece_axes
    axis_names = record.axis_names
    rules_list = configurations(game)
    players = max(r.num_players for r in rules_list)
    names = [axis_names(r) for r in rules_list]
    axes = {axis: _union(n[axis] for n in names) for axis in names[0]}
    fixed: dict[str, int] = {}
    present: set[str] = set()
    for rules in rules_list:
        lay = native_layout(rules)
        for piece, shape in lay.pieces:
            present.add(piece)
            for kind, size in zip(piece_axes[piece], shape):
                if kind not in ("seat", "card", *axes):
                    if fixed.setdefault(kind, size) != size:
                        raise AssertionError(
                            f"axis {kind} of {piece} is {size} here, {fixed[kind]} elsewhere"
                        )
    sizes = {"seat": players, "card": CARD_SLOTS, **{a: len(v) for a, v in axes.items()}, **fixed}
    features = _feature_names(rules_list)
    pieces = [(p, tuple(sizes[k] for k in piece_axes[p])) for p in piece_axes if p in present]
    pieces += [("seats", (players,)), ("deck", (CARD_SLOTS,)), ("rules", (len(features),))]
    lay = Layout(tuple(pieces))
    actions = tuple(card_name(c) for c in range(CARD_SLOTS)) + _union(r.decisions for r in rules_list)
    vocab = Vocabulary(
        game, players, axes, actions, features, lay, np.zeros(0, np.float32), np.zeros(0, np.float32)
    )
    low, high = np.zeros(lay.size, np.float32), np.zeros(lay.size, np.float32)
    for rules in rules_list:
        view = UniversalView(rules, vocab)
        native_low, native_high = view.native_bounds()
        np.minimum.at(low, view.index, native_low)
        np.maximum.at(high, view.index, native_high)
    for piece in CONSTANT_PIECES:
        high[lay.slices[piece]] = 1
    object.__setattr__(vocab, "low", low)
    object.__setattr__(vocab, "high", high)
    return vocab


class UniversalView:
    """One configuration seen through its family's :class:`Vocabulary`: converts observations,
    masks and actions (batched, one gather each)."""

    def __init__(self, rules: Rules, vocab: Vocabulary | None = None) -> None:
        vocab = vocab or vocabulary(rules.game)
        self.rules, self.vocabulary = rules, vocab
        record = family(rules)
        piece_axes, names = record.piece_axes, record.axis_names(rules)
        if rules.num_players > vocab.players:
            raise ValueError(
                f"layout='universal' holds up to {vocab.players} players in {record.title}, "
                f"got {rules.num_players}"
            )
        lay = self.native_layout = native_layout(rules)
        where = vocab.layout.slices
        index = np.empty(lay.size, np.int64)
        for piece, shape in lay.pieces:
            maps = []
            for kind, size in zip(piece_axes[piece], shape):
                if kind in names:
                    missing = [n for n in names[kind] if n not in vocab.axes[kind]]
                    if missing:
                        raise ValueError(
                            f"layout='universal' does not know the {kind} {missing[0]!r} of these rules: "
                            f"its {kind}s come from the {record.title} presets, readings and versions"
                        )
                    maps.append(np.array([vocab.axes[kind].index(n) for n in names[kind]], np.int64))
                else:
                    maps.append(np.arange(size, dtype=np.int64))
            universal_shape = vocab.layout.shape(piece)
            grid = np.meshgrid(*maps, indexing="ij")
            flat = np.ravel_multi_index(tuple(grid), universal_shape).ravel()
            index[lay.slices[piece]] = where[piece].start + flat
        self.index = index
        """(D,) the universal position of each entry of the configuration's observation."""
        base = np.zeros(vocab.size, np.float32)
        base[where["seats"].start : where["seats"].start + rules.num_players] = 1
        deck = np.zeros(CARD_SLOTS, np.float32)
        deck[list(rules.deck.cards)] = 1
        base[where["deck"]] = deck
        on = set(_features(rules))
        base[where["rules"]] = [name in on for name in vocab.features]
        self.base = base
        """(D_universal,) the constant pieces, 0 elsewhere."""
        decisions = [n for n in rules.decisions if n not in vocab.actions]
        if decisions:
            raise ValueError(f"layout='universal' has no action {decisions[0]!r}")
        self.actions = np.array([vocab.actions.index(n) for n in rules.action_names], np.int64)
        """(A,) the universal action of each of the configuration's actions."""
        native = np.full(vocab.num_actions, -1, np.int64)
        native[self.actions] = np.arange(len(self.actions))
        self.native_actions = native
        """(A_universal,) the configuration's action of each universal one (-1: it has none)."""

    def native_bounds(self) -> tuple[np.ndarray, np.ndarray]:
        """(low, high) of the configuration's own observation."""
        return family(self.rules).bounds(self.rules, self.native_layout)

    def observation(self, native: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
        """The universal (..., D_universal) float32 observation of a configuration's (..., D) one."""
        native = np.asarray(native)
        if native.shape[-1] != len(self.index):
            raise ValueError(
                f"expected observations of length {len(self.index)} ({self.rules.preset}, "
                f"{self.rules.num_players} players), got shape {native.shape}"
            )
        if out is None:
            out = np.empty((*native.shape[:-1], self.vocabulary.size), np.float32)
        out[...] = self.base
        out[..., self.index] = native
        return out

    def native_observation(self, universal: np.ndarray) -> np.ndarray:
        """The configuration's own observation inside a universal one (the inverse of
        :meth:`observation`)."""
        return np.asarray(universal)[..., self.index]

    def mask(self, native: np.ndarray) -> np.ndarray:
        """The universal (..., A_universal) action mask of a configuration's (..., A) mask (0 for
        the actions it does not have)."""
        native = np.asarray(native)
        out = np.zeros((*native.shape[:-1], self.vocabulary.num_actions), native.dtype)
        out[..., self.actions] = native
        return out

    def action(self, universal: Any) -> np.ndarray:
        """The configuration's action indices of universal ones (an int or an array);
        ``ValueError`` naming the action for one the configuration does not have."""
        values = np.asarray(universal, dtype=np.int64)
        top = self.vocabulary.num_actions
        if ((values < 0) | (values >= top)).any():
            bad = int(values[(values < 0) | (values >= top)].flat[0])
            raise ValueError(f"universal action {bad} is out of range 0..{top - 1}")
        native = self.native_actions[values]
        if (native < 0).any():
            bad = int(values[native < 0].flat[0])
            raise ValueError(
                f"universal action {bad} ({self.vocabulary.actions[bad]}) is not an action of "
                f"{self.rules.preset} with {self.rules.num_players} players"
            )
        return native


@lru_cache(maxsize=256)
def universal_view(rules: Rules) -> UniversalView:
    """The :class:`UniversalView` of ``rules`` (built once per rules set)."""
    return UniversalView(rules)


def universal_space(vocab: Vocabulary, mask: bool = True) -> Any:
    """One agent's observation space in ``vocab``: ``{"observation": Box (D,) float32,
    "action_mask": Box (A,) int8}`` (``mask=False``: the Box alone), the same for every
    configuration of the family."""
    box = gymnasium.spaces.Box(vocab.low, vocab.high, (vocab.size,), np.float32)
    if not mask:
        return box
    return gymnasium.spaces.Dict(
        {"observation": box, "action_mask": gymnasium.spaces.Box(0, 1, (vocab.num_actions,), np.int8)}
    )
