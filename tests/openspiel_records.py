"""Records of complete random Hearts deals played by OpenSpiel's ``hearts`` game, for replay tests.

A record is a plain dict (JSON-serialisable) that another test replays through our engine with
``reset(options={"hands": ..., "dealer": ..., "pass_direction": ...})`` and the recorded
decisions, checking the legal sets and the deal's points. Everything below was verified against
the installed open-spiel 2.0.2 (``open_spiel/games/hearts/hearts.cc``, shipped in the wheel) and
empirically (see ``tests/test_openspiel_records.py``).

OpenSpiel's game, in order of actions
-------------------------------------
1. **Pass-direction chance node** (the very first action): ``0`` No Pass, ``1`` Left, ``2`` Across,
   ``3`` Right (``action_to_string`` says so). OpenSpiel keeps no state between deals, so there is
   no left/right/across/hold cycle: each deal's direction is drawn uniformly. With
   ``pass_cards=False`` only ``0`` is *legal*, but ``chance_outcomes()`` still lists all four and
   ``apply_action`` accepts any of them -- so we draw from ``legal_actions()``, never from
   ``chance_outcomes()``.
2. **Deal**: 52 chance actions, each an undealt card drawn uniformly; the k-th card dealt goes to
   seat ``k % 4`` (seat 0 first). We apply a uniform random permutation, which is the same law.
3. **Pass** (skipped for No Pass): seat 0 chooses 3 cards *one card per decision*, then seat 1,
   seat 2, seat 3 -- always in this order, whatever the direction. A pass decision's legal set is
   every card still in the seat's hand: cards already chosen are removed from it (13, 12, 11
   legal cards), no other restriction. Cards are exchanged only after seat 3's third choice; seat
   ``p``'s cards go to seat ``(p + action) % 4``.
4. **Play**: the holder of 2C (after passing) leads; then clockwise ``p -> p + 1``; the trick's
   winner leads the next trick. 52 decisions.

Card index
----------
OpenSpiel's card is ``rank * 4 + suit`` with rank 0 = "2" .. 12 = "A" and suits ``"CDHS"`` (0 clubs,
1 diamonds, 2 hearts, 3 spades: ``action_to_string`` of 0, 1, 2, 3 is 2C 2D 2H 2S, of 4 is 3C, and
OpenSpiel's strings use exactly our short notation, "TS" for the ten). Ours is ``13 * suit + rank``
with the same suit order, so ``ours = 13 * (a % 4) + a // 4`` (:func:`card_from_openspiel`);
:func:`verify_card_mapping` checks all 52 against ``action_to_string``.

Seats, directions, dealer
-------------------------
OpenSpiel seat ``i`` is our seat ``i``: both play ``i -> i + 1``, and OpenSpiel's "Left" gives
seat ``i``'s cards to ``i + 1`` = our "left"; "Right" gives to ``i + 3 = i - 1`` = our "right";
"Across" to ``i + 2`` = our "across"; "No Pass" = our "hold".
OpenSpiel has no dealer. It deals from seat 0 and passes seat by seat from seat 0, i.e. seat 0 is
eldest hand, so every record has ``"dealer": 3`` (:data:`OPENSPIEL_DEALER`; eldest = dealer + 1 =
0 mod 4). Our engine passes seat by seat from eldest hand with single-card decisions whose mask
excludes chosen cards (docs/rules.md), so OpenSpiel's pass decisions replay one to one. The first
lead does not depend on the dealer (2C's holder), and OpenSpiel has no "eldest leads" option.

Parameters -> our options (:func:`openspiel_params_to_options`); OpenSpiel defaults in brackets
-----------------------------------------------------------------------------------------------
* ``pass_cards`` [True]: True -> ``pass_count=3``, ``pass_directions=("left", "right", "across",
  "hold")`` (the set OpenSpiel draws from, uniformly per deal; replay with the record's
  ``pass_direction``); False -> ``pass_directions=("hold",)`` (``pass_count`` stays 3, unused).
* ``no_pts_on_first_trick`` [True] -> ``no_points_first_trick``. OpenSpiel: a player who cannot
  follow suit on the first trick may not play a heart or QS unless he has nothing else (the
  penalty cards = positive-point cards; JD with ``jd_bonus`` is not one). Same as ours.
* ``can_lead_any_club`` [False]: False -> ``first_lead="lowest_club"`` (2C's holder must lead 2C);
  True -> ``"any_club"`` (2C's holder leads 2C or any other club he holds).
* ``must_break_hearts`` [True] and ``qs_breaks_hearts`` [True] -> ``hearts_break``:
  must=False -> ``"free"`` (hearts start broken; ``qs_breaks_hearts`` is then irrelevant);
  must=True, qs=True -> ``"heart_or_queen"`` (the OpenSpiel DEFAULT -- not plain "heart");
  must=True, qs=False -> ``"heart"``. A leader holding only hearts may lead one in every case.
* ``can_lead_hearts_instead_of_qs`` [False] -> ``lead_hearts_if_only_queen``: hearts unbroken
  and QS the leader's only non-heart -> QS or any heart may be led.
* OpenSpiel has no rule keeping QS from being led -> ``queen_needs_break=False``; no club play ->
  ``club_play=False``.
* ``jd_bonus`` [False] -> ``card_points``: ``{"hearts": 1, "QS": 13}`` plus ``"JD": -10`` when on.
* ``avoid_all_tricks_bonus`` [False] -> ``no_tricks_bonus=-5`` when on, else 0; OpenSpiel gives it
  only when nobody shot the moon, as ours does.
* Moon, always on in OpenSpiel -> ``moon="old"``, ``moon_cards="penalty"``, ``moon_points=None``:
  a player winning every trick that holds a heart or QS (JD is not needed) shoots; OpenSpiel adds
  -26 to his points and +26 to everyone else's, on top of the raw card points (so a shooter who
  also took JD ends at -10, an opponent who took JD at 16). That is docs/rules.md's old moon with
  T = 26.
* Fixed in OpenSpiel: 4 players, one deal per episode -> ``num_players=4``,
  ``scoring="points"`` (one deal an episode is the env's default setting, ``episode="deal"``).

Scoring
-------
``state.returns()[p] = 26 - points[p]`` where ``points`` are the deal's points after moon and
bonus (positive = bad, our convention); so ``points = 26 - returns`` (checked against
``HeartsState.points(p)`` for every record). Without a moon the points sum to 26 (-10 if JD is on,
-5 per trickless player with the bonus); with a moon they sum to 78 (-10 with JD), the shooter at 0
(-10 if he also took JD) and each other player at 26 (+ -10 for JD).
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from hearts_env.core.cards import card_name

OPENSPIEL_DEFAULTS: dict[str, bool] = {
    "avoid_all_tricks_bonus": False,
    "can_lead_any_club": False,
    "can_lead_hearts_instead_of_qs": False,
    "jd_bonus": False,
    "must_break_hearts": True,
    "no_pts_on_first_trick": True,
    "pass_cards": True,
    "qs_breaks_hearts": True,
}
"""``pyspiel.load_game("hearts").get_parameters()`` of open-spiel 2.0.2."""

PASS_DIRECTION_OF_ACTION = {0: "hold", 1: "left", 2: "across", 3: "right"}
"""OpenSpiel's pass-direction chance action -> our direction name."""

OPENSPIEL_DEALER = 3
"""The dealer whose eldest hand (dealer + 1 = seat 0) deals and passes first in OpenSpiel."""

TOTAL_PENALTY = 26
"""OpenSpiel's ``kTotalPositivePoints``: the upper bound its returns subtract points from."""

NUM_PLAYERS = 4
NUM_PASS = 3


def card_from_openspiel(action: int) -> int:
    """Our card index (13 * suit + rank) of OpenSpiel's card action (rank * 4 + suit)."""
    return 13 * (action % 4) + action // 4


def card_to_openspiel(index: int) -> int:
    """OpenSpiel's card action of our card index."""
    return 4 * (index % 13) + index // 13


_OURS = [card_from_openspiel(a) for a in range(52)]
_NAME = [card_name(c) for c in _OURS]


def _full_params(params: dict | None) -> dict[str, bool]:
    params = dict(params or {})
    unknown = set(params) - set(OPENSPIEL_DEFAULTS)
    if unknown:
        raise ValueError(
            f"unknown OpenSpiel hearts parameter(s) {sorted(unknown)}; known: {sorted(OPENSPIEL_DEFAULTS)}"
        )
    for key, value in params.items():
        if not isinstance(value, bool):
            raise TypeError(f"OpenSpiel hearts parameter {key} must be a bool, got {value!r}")
    return {**OPENSPIEL_DEFAULTS, **params}


def openspiel_params_to_options(params: dict) -> dict:
    """Our rule options (docs/rules.md, ``hearts_env.presets.make_rules("hearts", **options)``) that
    play like OpenSpiel's ``hearts`` with ``params`` (missing keys take OpenSpiel's defaults).

    See the module docstring for each mapping. ``pass_directions`` is the set OpenSpiel draws a
    deal's direction from (uniformly, no cycle): replay a record with its ``pass_direction``.
    """
    p = _full_params(params)
    if not p["must_break_hearts"]:
        hearts_break = "free"
    elif p["qs_breaks_hearts"]:
        hearts_break = "heart_or_queen"
    else:
        hearts_break = "heart"
    card_points: dict[str, int] = {"hearts": 1, "QS": 13}
    if p["jd_bonus"]:
        card_points["JD"] = -10
    return {
        "num_players": NUM_PLAYERS,
        "pass_count": NUM_PASS,
        "pass_directions": ("left", "right", "across", "hold") if p["pass_cards"] else ("hold",),
        "first_lead": "any_club" if p["can_lead_any_club"] else "lowest_club",
        "hearts_break": hearts_break,
        "queen_needs_break": False,
        "lead_hearts_if_only_queen": p["can_lead_hearts_instead_of_qs"],
        "no_points_first_trick": p["no_pts_on_first_trick"],
        "club_play": False,
        "card_points": card_points,
        "scoring": "points",
        "moon": "old",
        "moon_cards": "penalty",
        "moon_points": None,
        "no_tricks_bonus": -5 if p["avoid_all_tricks_bonus"] else 0,
    }


def verify_card_mapping(game: Any = None) -> None:
    """Check :func:`card_from_openspiel` against OpenSpiel's ``action_to_string`` for all 52 cards.

    Raises ``AssertionError`` naming the first card that disagrees.
    """
    import pyspiel

    state = (game or pyspiel.load_game("hearts")).new_initial_state()
    state.apply_action(state.legal_actions()[0])  # card strings need a non-empty history
    for action in range(52):
        theirs = state.action_to_string(action)
        ours = card_name(card_from_openspiel(action))
        assert theirs == ours, f"OpenSpiel card {action} is {theirs}, our mapping says {ours}"


def points_from_returns(returns: list[float]) -> list[int]:
    """Our deal points (positive = bad) from OpenSpiel's returns (26 - points)."""
    points = [TOTAL_PENALTY - r for r in returns]
    rounded = [round(x) for x in points]
    assert all(abs(x - r) < 1e-9 for x, r in zip(points, rounded)), f"non-integer points {points}"
    return rounded


def _names(actions: list[int]) -> list[str]:
    """Our card names of OpenSpiel actions, sorted by our card index."""
    return [card_name(c) for c in sorted(_OURS[a] for a in actions)]


def record_deals(params: dict, num_deals: int, seed: int) -> list[dict]:
    """Play ``num_deals`` complete deals of OpenSpiel hearts with uniformly random chance and
    uniformly random legal actions (one ``numpy.random.Generator(seed)`` for everything).

    Each record::

        {"hands": [[names] * 4],        # as dealt, before passing; sorted by our card index
         "dealer": 3,                   # eldest hand 0 passes first (module docstring)
         "pass_direction": "left" | "right" | "across" | "hold",
         "decisions": [{"seat", "legal", "action"}, ...],  # 12 pass decisions (none for hold),
                                        # seat 0 x3, 1 x3, 2 x3, 3 x3, then the 52 plays;
                                        # "legal" sorted by our card index
         "points": [int] * 4,           # 26 - returns: after moon/bonus, positive = bad
         "openspiel_returns": [float] * 4,
         "pass_legal_excludes_chosen": True}  # a pass mask omits cards the seat already chose

    Same ``(params, num_deals, seed)`` -> same records.
    """
    import pyspiel

    full = _full_params(params)
    game = pyspiel.load_game("hearts", full)
    verify_card_mapping(game)
    rng = np.random.default_rng(seed)
    records = []
    for _ in range(num_deals):
        state = game.new_initial_state()
        directions = state.legal_actions()  # not chance_outcomes(): see the module docstring
        direction = directions[int(rng.integers(len(directions)))]
        state.apply_action(direction)
        hands: list[list[int]] = [[] for _ in range(NUM_PLAYERS)]
        for k, action in enumerate(rng.permutation(52)):
            assert state.is_chance_node()
            hands[k % NUM_PLAYERS].append(_OURS[int(action)])
            state.apply_action(int(action))
        decisions = []
        while not state.is_terminal():
            seat = state.current_player()
            assert seat >= 0, f"unexpected chance or special node {seat} after the deal"
            legal = state.legal_actions()
            action = legal[int(rng.integers(len(legal)))]
            decisions.append({"seat": seat, "legal": _names(legal), "action": _NAME[action]})
            state.apply_action(action)
        returns = list(state.returns())
        points = points_from_returns(returns)
        assert points == [round(state.points(p)) for p in range(NUM_PLAYERS)], (points, state)
        records.append(
            {
                "hands": [[card_name(c) for c in sorted(h)] for h in hands],
                "dealer": OPENSPIEL_DEALER,
                "pass_direction": PASS_DIRECTION_OF_ACTION[direction],
                "decisions": decisions,
                "points": points,
                "openspiel_returns": returns,
                "pass_legal_excludes_chosen": True,
            }
        )
    return records


if __name__ == "__main__":
    start = time.perf_counter()
    recs = record_deals({}, 1000, seed=0)
    print(f"1000 deals recorded in {time.perf_counter() - start:.2f} s")
