"""The rules in words, written from the rules data itself, so the text cannot drift from the code.

:func:`describe` turns one validated :class:`~hearts_env.rules.Rules` into Markdown: a short
paragraph per topic (players and cards, passing, leads, the first trick, card points, the moon,
decisions, the game's end, chips). :func:`describe_preset` adds what a preset of
:data:`~hearts_env.presets.PRESETS` says beyond one rules set: its description line, its player
range, the differences between player counts, and its readings and versions, each described by
the topics it changes. Every fact comes from :func:`~hearts_env.presets.make_rules` and the
``Rules`` fields and derived properties; the sentences are this module's.

``docs/rules.md`` is the shipped rules reference: its generated blocks (between
``<!-- begin ... -->`` and ``<!-- end ... -->`` markers) are this module's output, and the test
``tests/test_docs.py`` compares them. After changing a preset or a rule, regenerate them with::

    python -m hearts_env.describe --write docs/rules.md     # --check: exit 1 if out of date
    python -m hearts_env.describe black_maria                # one preset's text
"""

from __future__ import annotations

import argparse
import ast
import inspect
import re
import sys
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import MISSING, fields
from pathlib import Path

from hearts_env.cards import (
    HEARTS,
    JOKERS,
    NUM_RANKS,
    NUM_STANDARD_CARDS,
    SUIT_SYMBOLS,
    card_symbol,
    cards_of,
    parse_card,
    parse_cards,
)
from hearts_env.decisions import _TEN_OF_DIAMONDS
from hearts_env.families import family, family_of
from hearts_env.presets import PRESETS, REMOVAL_ORDERS, REMOVAL_TABLES, get_preset, make_rules
from hearts_env.rules import (
    _BOOLS,
    _INTS,
    BIDDINGS,
    EPISODES,
    FIRST_LEADS,
    FIRST_TRICK_ALL_PENALTY,
    GAMES,
    HEARTS_BREAKS,
    ILLEGAL_ACTIONS,
    JOKER_POINTS,
    JOKER_RANKS,
    LEFTOVERS,
    MOON_BIDS,
    MOON_CARDS,
    MOONS,
    PASS_DIRECTIONS,
    QUEEN_OF_SPADES,
    SCORINGS,
    SETTLEMENTS,
    SMEAR_CATEGORIES,
    SMEAR_DEALS,
    SUIT_LETTERS,
    TEAM_SCORINGS,
    TRUMP_CHOICES,
    Rules,
)
from hearts_env.table import default_reward

__all__ = ["describe", "describe_options", "describe_preset", "preset_index", "regenerate", "topics"]

_ACE_OF_SPADES, _KING_OF_SPADES, _QUEEN_OF_CLUBS, _QUEEN_OF_DIAMONDS, _QUEEN_OF_HEARTS = (
    parse_card(c) for c in ("AS", "KS", "QC", "QD", "QH")
)
_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


# ---------------------------------------------------------------------- small words
def _c(card: int) -> str:
    return card_symbol(card)


def _cards(cards: Sequence[int]) -> str:
    return ", ".join(_c(c) for c in cards)


def _join(items: Sequence[str], word: str = "and") -> str:
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {word} " + items[-1]


def _num(value: int) -> str:
    return f"−{-value}" if value < 0 else str(value)


def _code(text: object) -> str:
    return f"`{text}`"


def _plural(count: int, one: str, many: str | None = None) -> str:
    return f"{count} {one if count == 1 else (many or one + 's')}"


def _seat_list(seats: Sequence[int]) -> str:
    return _join([str(s) for s in seats])


def _in_play(rules: Rules) -> list[int]:
    """Each card identity in play once (two decks hold every identity twice)."""
    return sorted(set(rules.deck.cards))


def _hearts_in_play(rules: Rules) -> list[int]:
    return [c for c in _in_play(rules) if c < NUM_STANDARD_CARDS and c // NUM_RANKS == HEARTS]


def _set_phrase(rules: Rules, cards: Sequence[int]) -> str:
    """A set of cards in words: "the hearts and Q♠" where it holds every heart in play."""
    hearts = _hearts_in_play(rules)
    cards = sorted(set(cards))
    if len(hearts) >= 2 and set(hearts) <= set(cards):
        others = [c for c in cards if c not in hearts]
        return _join(["the hearts", *(_c(c) for c in others)])
    return _join([_c(c) for c in cards])


def _face(card: int) -> int:
    return card % NUM_RANKS + 2


def _points_phrase(rules: Rules, points: Sequence[int]) -> str:
    """Card values in words: the cards with their own values, then what every (other) heart is
    worth, grouped; cards worth 0 are left out."""
    in_play = _in_play(rules)
    hearts = _hearts_in_play(rules)
    flat = Counter(points[c] for c in hearts if points[c])
    baseline: tuple[str, int] | None = None
    covered = 1
    if flat:
        value, count = max(flat.items(), key=lambda item: (item[1], item[0]))
        if count > covered:
            baseline, covered = ("flat", value), count
    face = sum(points[c] == _face(c) for c in hearts)
    if face > covered:
        baseline = ("face", 0)

    def fits(c: int) -> bool:
        if baseline is None or c not in hearts:
            return False
        return points[c] == (baseline[1] if baseline[0] == "flat" else _face(c))

    special = [c for c in in_play if not fits(c) and (points[c] or (baseline and c in hearts))]
    groups: dict[int, list[int]] = {}
    for c in special:
        groups.setdefault(points[c], []).append(c)
    order = sorted(groups, key=lambda v: (0 if v > 0 else 1 if v == 0 else 2, -abs(v)))
    parts = [f"{_cards(groups[v])} {_num(v)}{' each' if len(groups[v]) > 1 else ''}" for v in order if v > 0]
    if baseline is not None:
        other = "other " if any(c in hearts for c in special) else ""
        if baseline[0] == "flat":
            parts.append(f"every {other}heart {_num(baseline[1])}")
        else:
            honours = [f"{_c(c)[:-1]} {_face(c)}" for c in hearts if c % NUM_RANKS >= 9 and fits(c)]
            tail = f" ({', '.join(honours)})" if honours else ""
            parts.append(f"every {other}heart its face value{tail}")
    parts += [
        f"{_cards(groups[v])} {_num(v)}{' each' if len(groups[v]) > 1 else ''}" for v in order if v <= 0
    ]
    return "; ".join(parts)


def _direction(direction: str, n: int) -> str:
    if direction == "across":
        return "across" if n == 4 else f"across ({n // 2} seats to the left)"
    if direction == "hold":
        return "hold (no pass)"
    return direction


def _first_lead_card(rules: Rules) -> str:
    return _c(rules.lowest_club)


# ---------------------------------------------------------------------- topics
def _players_and_cards(r: Rules) -> str:
    n = r.num_players
    if r.decks == 2:
        deck = "Two 52-card decks shuffled together (every card twice)"
        if r.removed:
            deck += f", less both copies of {_cards(r.removed)}"
    else:
        deck = "The 52 standard cards"
        if r.removed:
            deck += f" less {_cards(r.removed)}"
    if r.jokers:
        names = ", ".join(_code(f"JK{j - 51}") for j in JOKERS[: r.jokers])
        deck += f", plus {_WORDS[r.jokers]} joker{'s' if r.jokers > 1 else ''} ({names})"
    if r.removed or r.jokers or r.decks == 2:
        deck += f": {len(r.deck)} cards"
    text = f"{n} players. {deck}."
    if r.stock_deal is not None:
        text += (
            f" Each player is dealt {r.stock_deal}; the other {r.stock_size} cards are a face-down "
            "stock (see Play)."
        )
    else:
        text += f" Each player is dealt {r.hand_size}, so a deal has {r.hand_size} tricks."
    if r.kitty_size:
        first = "the first trick that is not cancelled" if r.decks == 2 else "the first trick"
        what = (
            f"A widow of {r.kitty_size} cards is"
            if r.widow is not None
            else f"The {_plural(r.kitty_size, 'card')} that do{'es' if r.kitty_size == 1 else ''} "
            "not divide evenly " + ("is" if r.kitty_size == 1 else "are")
        )
        text += (
            f" {what} set aside face down (a kitty); the winner of {first} takes "
            f"{'it' if r.kitty_size == 1 else 'them'} with the trick, points included. Only he sees "
            "the kitty, and until the deal ends the others see his points without its points."
        )
    return text


def _passing(r: Rules) -> str:
    directions = r.pass_directions
    if r.pass_count == 0 or all(d == "hold" for d in directions):
        return "No passing."
    cards = _plural(r.pass_count, "card")
    choose = "choosing them before he sees what he receives"
    if len(directions) == 1:
        where = {
            "left": "to the player on his left",
            "right": "to the player on his right",
            "across": "across the table" if r.num_players == 4 else f"{r.num_players // 2} seats to his left",
        }[directions[0]]
        return f"Each player passes {cards} face down {where} every deal, {choose}."
    cycle = ", ".join(_direction(d, r.num_players) for d in directions)
    return (
        f"Each player passes {cards} face down, {choose}. The direction follows the deals in the "
        f"cycle {cycle}, then starts again."
    )


def _before_play(r: Rules) -> str | None:
    if r.bidding == "none":
        return None
    when = "After the pass" if r.pass_count else "After the deal"
    if r.bidding == "general":
        g = r.general_points
        return (
            f"{when} and before the first lead, each player in turn from eldest hand passes "
            f"({_code('pass')}) or declares Général ({_code('general')}): he will take every penalty "
            f"card. The first declaration ends the round. A declarer who succeeds scores 0 and each "
            f"opponent {g}; one who fails scores {g} and the others 0."
        )
    if r.bidding == "auction":
        suits = ", ".join(_code(f"suit:{s}") for s in SUIT_LETTERS)
        return (
            f"{when}, eldest hand opens the auction with a bid of 1 to {r.max_bid} chips ({_code('bid:1')} "
            f"… {_code(f'bid:{r.max_bid}')}; he may not pass); then each player to the dealer bids once: "
            f"{_code('pass')}, or more chips than the highest bid so far. The highest bidder adds his bid "
            f"to his deal points, names the penalty suit ({suits}) and leads the first trick with any card."
        )
    partner = _c(_TEN_OF_DIAMONDS)
    return (
        f"{when}, each player in turn from eldest hand passes ({_code('pass')}) or bids to take "
        f"every trick ({_code('slam')}); the first bid ends the round. The holder of {partner} becomes "
        "the bidder's silent partner (none if the bidder holds it; only the two of them know it until "
        "the deal ends), and the two add their deal points together. The bidder leads the first "
        "trick with any card. If nobody bids, the deal is played without partners."
    )


def _first_lead(r: Rules) -> str:
    if r.first_lead == "eldest":
        text = "Eldest hand (the player on the dealer's left) leads any card to the first trick."
    else:
        card = _first_lead_card(r)
        who = f"The holder of {card}"
        if r.decks == 2:
            who = f"The holder of a {card} nearest the dealer's left"
        elif r.kitty_size or r.stock_deal is not None:
            place = "the kitty" if r.kitty_size else "the stock"
            who += f" (or of the lowest club dealt, when {card} lies in {place})"
        if r.first_lead == "lowest_club":
            text = f"{who} leads it to the first trick."
        else:
            text = f"{who} leads the first trick, with any club."
    if r.bidding == "auction":
        text += " After a won auction its winner leads instead."
    return text


def _leading_hearts(r: Rules) -> str:
    if r.hearts_break == "free":
        return "Hearts may be led at any time."
    broken = "a heart" if r.hearts_break == "heart" else f"a heart or {_c(QUEEN_OF_SPADES)}"
    banned = "No heart" if not r.queen_needs_break else f"Neither a heart nor {_c(QUEEN_OF_SPADES)}"
    text = (
        f"{banned} may be led before {broken} has been played in the deal (discarded on another "
        "suit, as a rule), unless the leader holds nothing else."
    )
    if r.lead_hearts_if_only_queen:
        text += f" A leader whose only card other than hearts is {_c(QUEEN_OF_SPADES)} may lead a heart."
    return text


def _first_trick(r: Rules) -> str:
    parts = []
    if r.no_heart_lead_first_trick:
        parts.append("No heart may be led to the first trick unless the leader holds only hearts.")
    if r.no_points_first_trick:
        penalty = _set_phrase(r, cards_of(r.penalty_mask))
        parts.append(
            f"No penalty card ({penalty}) may be played to the first trick while the player has "
            "another card he may play."
        )
        parts.append(
            {
                "play": "A hand of nothing but penalty cards plays one, and it scores as usual.",
                "redeal": "If a player holds nothing but penalty cards when play begins, the deal is "
                "cancelled and the same dealer deals again.",
                "not_counted": "If a player holds nothing but penalty cards when play begins, the penalty "
                "cards of the first trick score nothing (and a moon does not need them).",
                "to_lowest": "If a player holds nothing but penalty cards when play begins, the first "
                "trick is set aside and, when the deal ends, goes to the player with the lowest points "
                "above zero (to its winner if nobody has any).",
            }[r.first_trick_all_penalty]
        )
    else:
        parts.append(f"{'Otherwise any' if parts else 'Any'} card may be played to the first trick.")
    return " ".join(parts)


def _play(r: Rules) -> str | None:
    parts = []
    if r.jokers:
        value = r.card_points[JOKERS[0]]
        scores = "scores nothing" if not value else f"scores {_num(value)}"
        parts.append(
            "A joker may be played at any time, even by a player who could follow suit; it never "
            f"wins a trick and {scores}. After a joker lead the trick has no suit until the next "
            "card, whose suit the others then follow."
        )
    if r.club_play:
        parts.append(
            f"The holder of {_c(QUEEN_OF_SPADES)} must play it at the first chance: when void in the "
            f"suit led, or following to a spade trick already headed by {_c(_ACE_OF_SPADES)} or "
            f"{_c(_KING_OF_SPADES)}."
        )
    if r.discard_first is not None:
        parts.append(
            f"A player void in the suit led must discard {_c(r.discard_first)} before any other card."
        )
    if r.stock_deal is not None:
        parts.append(
            "A player who cannot follow suit draws from the stock, one card at a time, until he can "
            "or the stock is empty. A player whose hand is empty drops out of the deal (if he won the "
            "trick, the next player still in on his left leads). When at most one player still holds "
            "cards, he adds his hand and the rest of the stock to his tricks and the deal ends, so "
            "deals vary in length."
        )
    if r.decks == 2:
        parts.append(
            "Two identical cards in one trick cancel each other: neither can win it. A trick with two "
            "such pairs, or with no card of the suit led left uncancelled, is cancelled: its cards "
            "wait for the winner of the next trick (a cancelled last trick goes to nobody), and its "
            "leader leads again."
        )
    return " ".join(parts) or None


def _card_points(r: Rules) -> str:
    if r.bidding == "auction":
        counts = Counter(c // NUM_RANKS for c in _in_play(r) if c < NUM_STANDARD_CARDS)
        sizes = sorted(set(counts.values()))
        if len(sizes) == 1:
            total = f"{sizes[0]} a deal"
        else:
            total = (
                "as many as the suit has cards in play ("
                + ", ".join(f"{SUIT_SYMBOLS[s]} {counts[s]}" for s in range(4))
                + ")"
            )
        text = f"Only the penalty suit scores, 1 a card: {total}, plus the winning bid to its bidder."
    else:
        values = _points_phrase(r, r.card_points)
        text = f"{values[0].upper()}{values[1:]}." if values else "No card scores."
        copies = " (each copy of a card scores)" if r.decks == 2 else ""
        if r.scoring != "points":
            qd = r.card_points[_QUEEN_OF_DIAMONDS]
            floor = (
                "and a deal score never goes below 0"
                if r.scoring == "royal_deal_floor"
                else "which lowers its taker's game total, not below 0 (his deal points are what his "
                "total actually loses; a total already below 0 keeps its value)"
            )
            text += (
                f" Royal scoring: {_c(_QUEEN_OF_HEARTS)} doubles every heart its taker won in the "
                f"deal, itself included; {_c(QUEEN_OF_SPADES)} scores nothing for a player who also "
                f"took {_c(_QUEEN_OF_CLUBS)}; then {_c(_QUEEN_OF_DIAMONDS)}'s {_num(qd)} is counted, "
                f"{floor}. With the hearts doubled the penalty cards are worth {r.penalty_total} in all."
            )
        elif r.penalty_mask:
            text += f" The penalty cards are worth {r.penalty_total} in all{copies}."
    if r.no_tricks_bonus:
        text += f" A player who takes no trick scores {_num(r.no_tricks_bonus)} (not in a moon deal)."
    return text


def _moon(r: Rules) -> str:
    moon_cards = cards_of(r.moon_mask)
    if not moon_cards:
        return "No card scores, so there is no moon."
    count = len(moon_cards) * r.decks
    both = "both copies of " if r.decks == 2 else ""
    if r.moon_cards == "counting":
        what = f"{both}every card that scores, bonus cards too ({count} cards)"
    else:
        what = f"{both}every penalty card ({count} cards)"
    if r.team_scoring == "sum":
        return (
            f"No player shoots the moon alone: a team whose players together take {what} scores 0 "
            f"and each player of the other team {r.penalty_total}."
        )
    if r.moon == "none":
        return f"No moon: a player who takes {what} scores them like any other cards."
    royal = r.scoring != "points"
    t = "his own deal score" if royal else str(r.penalty_total)
    others = ("the shooter's deal score" if royal else t) if r.moon_points is None else str(r.moon_points)
    bonus = not royal and any(r.card_points[c] < 0 for c in _in_play(r))
    if bonus:
        old = f"the shooter takes {t} off his deal points (leaving the bonus cards he took)"
        new = f"the shooter takes twice {t} off his deal points (−{t} and the bonus cards he took)"
    else:
        old = "the shooter scores 0"
        new = "the shooter scores minus his own deal score" if royal else f"the shooter scores −{t}"
    old += f" and every other player scores {others} more"
    new += " and the others keep their points"
    text = f"Taking {what} shoots the moon"
    if r.bidding == "general":
        text += " (without a declaration)"
    text += (
        ": "
        + {
            "old": old + ".",
            "new": new + ".",
            "no_points": "the deal scores 0 for everyone.",
            "slam": f"the shooter scores −{r.penalty_total} and everyone else 0.",
            "shooter_choice": (
                f"after the last trick the shooter chooses {_code('moon:add')} ({old}) or "
                f"{_code('moon:subtract')} ({new})."
            ),
            "auto_choice": (
                f"{old}, unless that would end the game without the shooter holding the lowest total; "
                f"then {new}."
            ),
        }[r.moon]
    )
    return text


def _partnerships(r: Rules) -> str | None:
    if not r.teams:
        return None
    teams = " against ".join(f"seats {_seat_list(team)}" for team in r.teams)
    if r.team_scoring == "sum":
        how = "each team scores its players' points together."
    else:
        how = (
            "each player scores his own points and shoots the moon alone; at the end of the game "
            "the partners' totals are added and the lower team total wins."
        )
    return f"Fixed partners, {teams}: {how}"


def _game(r: Rules) -> str:
    who = "a team's total" if r.team_scoring == "sum" else "a player's total"
    text = f"The game ends after the deal in which {who} reaches {r.target_score}"
    if r.max_deals is not None:
        text += f", or after {_plural(r.max_deals, 'deal')}"
    winner = "the lowest team total wins" if r.teams else "the lowest total wins (ties share the win)"
    text += f"; {winner}."
    if r.exact_target_reset:
        text += f" A total of exactly {r.target_score} goes back to 0."
    return text


def _settlement(r: Rules) -> str | None:
    n, t = r.num_players, r.penalty_total
    if r.settlement == "points":
        return None
    if r.settlement == "howell":
        return (
            f"Howell's chips after every deal: each player pays {n - 1} chips a point into a pool and "
            f"takes back {t} less his points, so he wins {t} − {n} × his points."
        )
    if r.settlement == "jackpot":
        return (
            "Jackpot chips after every deal: each player pays his points into a pool, and the players "
            "who took no penalty card share it in whole chips; the odd chips, and the whole pool "
            "when nobody is clean, wait for the next deal."
        )
    if r.settlement == "lowest_wins_chips":
        text = (
            "Chips after every deal: the player with the fewest points collects from every other "
            "player that player's points; equal lowest players split each payment in whole chips, "
            "the odd chips going to a pool that the next deal's winners share."
        )
        if r.moon != "none":
            text += (
                f" A moon shooter instead collects his points: the same share from each of the "
                f"{n - 1} others, the rest from the pool."
            )
        return text
    return (
        "Chips when the game ends: each player pays the lowest scorer the difference between their "
        "totals; equal lowest scorers share."
    )


def _actions(r: Rules) -> str:
    cards = f"{_code('2C')} … {_code('AS')}"
    if r.jokers:
        cards += ", " + ", ".join(_code(f"JK{j - 51}") for j in JOKERS[: r.jokers])
    text = f"{len(r.action_names)} actions: the {_plural(r.card_slots, 'card')} ({cards})"
    names = list(r.decisions)
    bids = [d for d in names if d.startswith("bid:")]
    shown = [_code(d) for d in names if not d.startswith("bid:")]
    if bids:
        shown.insert(names.index(bids[0]), f"{_code(bids[0])} … {_code(bids[-1])}")
    if shown:
        text += ", then " + ", ".join(shown)
    phases = [p for p in r.phases if p not in ("passing", "playing")]
    if phases:
        text += f" (decision phases: {', '.join(_code(p) for p in phases)})"
    return text + "."


def _environment(r: Rules) -> str | None:
    parts = []
    if default_reward(r) == "team":
        parts.append(
            'Each player is rewarded with his team\'s result (`reward="team"`, the default here; the '
            "slam bidder and his silent partner are a team for the deal)."
            if r.bidding == "slam"
            else 'Each player is rewarded with his team\'s result (`reward="team"`, the default here).'
        )
    if r.episode != "deal":
        parts.append("One environment episode is a whole game.")
    if r.illegal_action == "terminate":
        parts.append(
            f"An illegal action ends the episode, the offender charged {r.penalty_total} and the others 0."
        )
    return " ".join(parts) or None


_TOPICS: tuple[tuple[str, Callable[[Rules], str | None]], ...] = (
    ("Players and cards", _players_and_cards),
    ("Passing", _passing),
    ("Before play", _before_play),
    ("First lead", _first_lead),
    ("Leading hearts", _leading_hearts),
    ("First trick", _first_trick),
    ("Play", _play),
    ("Card points", _card_points),
    ("Moon", _moon),
    ("Partners", _partnerships),
    ("Game", _game),
    ("Chips", _settlement),
    ("Actions", _actions),
    ("Environment", _environment),
)


# ---------------------------------------------------------------------- Smear (docs/smear.md)
_SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")


def _sides(r: Rules) -> str:
    if not r.teams:
        return "every player for himself (cut-throat)"
    return f"{_num(len(r.teams))} sides of {_num(len(r.teams[0]))}: " + "; ".join(
        _seat_list(t) for t in r.teams
    )


def _smear_players(r: Rules) -> str:
    deck = len(r.deck)
    text = f"{r.num_players} players, {_sides(r)}. {deck} cards"
    if r.jokers:
        text += f" ({_plural(r.jokers, 'joker')})"
    if r.removed:
        text += f", without {_cards(r.removed)}"
    text += f"; {_num(r.hand_size)} cards each"
    undealt = r.stock_size
    if undealt:
        widow = r.widow or 0
        parts = []
        if widow:
            parts.append(
                f"a widow of {_num(widow)}" if r.smear_deal == "widow" else f"a kitty of {_num(widow)}"
            )
        rest = undealt - widow
        if rest:
            parts.append(
                f"{_num(rest)} dead cards" if r.smear_deal == "blind" else f"a stock of {_num(rest)}"
            )
        text += ", " + " and ".join(parts)
    return text + "."


def _smear_bidding(r: Rules) -> str:
    text = (
        f"From eldest hand to the dealer, each player once: `pass` or a bid of {r.min_bid}–{r.max_bid} "
        "points above every earlier bid"
    )
    if r.moon_bid == "points":
        text += f", or `bid:moon` (worth {r.moon_value}: every point, or set back as much)"
    elif r.moon_bid == "game":
        text += (
            ", or `bid:moon` (every point: wins the game at once, except that a side whose total was "
            "negative before the deal only goes back to 0; missing loses the game)"
        )
    text += ". "
    text += (
        f"When everybody else has passed the dealer must bid {r.min_bid}."
        if r.dealer_must_bid
        else "A deal everybody passes is thrown in (the same dealer deals again)."
    )
    return text + " The highest bidder is the pitcher."


def _smear_trumps(r: Rules) -> str:
    text = (
        "The pitcher names trumps (`suit:C` … `suit:S`)."
        if r.trumps == "named"
        else "The suit of the pitcher's first lead is trumps (the joker cannot be that lead)."
    )
    order = ["A", "K", "Q", "J"]
    if r.jick:
        order.append("the jick (the other jack of the trump colour)")
    jokers = "JK2, JK1" if r.distinguishable_jokers else "the jokers (of two, the later-played higher)"
    if r.jokers == 1:
        jokers = "the joker"
    if r.jokers and r.joker_rank == "high":
        order.append(jokers)
    order += ["10", "9", "…", "2"]
    if r.jokers and r.joker_rank == "lowest":
        order.append(jokers)
    return text + " Trumps, high to low: " + ", ".join(order) + "."


def _smear_before_play(r: Rules) -> str:
    keep = _num(r.keep)
    if r.smear_deal == "stock":
        return (
            f"The pitcher takes the stock; then the pitcher and each other player in turn discard down to {keep} "  # noqa: E501
            f"(trumps only by a player holding more than {keep} trumps)."
        )
    if r.smear_deal == "nine_card":
        return (
            f"Each player throws away his non-trumps and draws up to {keep} (the stock may run out); a player with "  # noqa: E501
            f"more than {keep} trumps keeps them and plays the extras to the first trick."
        )
    if r.smear_deal == "widow":
        return (
            "The pitcher takes the widow before naming trumps; the others throw away their non-trumps and draw up "  # noqa: E501
            f"to {keep}; the pitcher takes the rest of the stock; everybody holding more than {keep} discards down "  # noqa: E501
            f"to it (trumps only by a player holding more than {keep} trumps, and never the scoring trumps A, J, "  # noqa: E501
            "jick, jokers, 10, 3, 2 while anything else is left)."
        )
    if r.widow:
        return f"The pitcher takes the kitty and discards back to {keep}; the dead cards stay out of play."
    return "The hands are played as dealt; the undealt cards stay out of play."


def _smear_play(r: Rules) -> str:
    if r.smear_deal == "nine_card":
        lead = "Only trumps are played; a player out of trumps drops out, and a winner out of trumps passes the lead on."  # noqa: E501
    else:
        lead = "A trump may always be played; otherwise follow suit if able; if not, any card."
    first = "The pitcher leads the first trick"
    if r.pitcher_leads_trump:
        first += ", a trump if he holds one"
    return f"{first}. {lead} The highest trump wins, else the highest card of the suit led."


def _smear_scoring(r: Rules) -> str:
    names = {
        "high": "High (the highest natural trump in play, to its holder's side)",
        "low": "Low (the lowest natural trump in play, to its holder's side)",
        "two": "Two (the trump 2, to its holder's side)", "jack": "Jack (won in a trick)", "jick": "Jick (won in a trick)",  # noqa: E501
        "joker1": "JK1", "joker2": "JK2", "game": "Game (most card points won: A 4, K 3, Q 2, J 1, 10 10; no point on a tie)",  # noqa: E501
        "ten": "Ten (the trump 10, won in a trick)", "trey": "Trey 3 (the trump 3, won in a trick)",
    }  # fmt: skip
    jokers = "to their holders" if r.joker_points == "holder" else "won in a trick"
    parts = [names[c] + (f" ({jokers})" if c.startswith("joker") else "") for c in r.categories]
    return (
        f"Up to {r.smear_points} points a deal: {'; '.join(parts)}. A category whose card is not in play is not "  # noqa: E501
        "scored. A pitching side making less than its bid scores minus the bid; the others score what they make."  # noqa: E501
    )


def _smear_game(r: Rules) -> str:
    text = f"Side totals to {r.target_score}"
    if r.pitcher_only_wins:
        return text + ": only the pitching side can win (when its total reaches the target)."
    return text + "; several sides over it in one deal: the higher wins; a tie: the pitching side wins."


def _smear_environment(r: Rules) -> str:
    team = "his side's" if r.teams else "his own"
    return (
        f'Each player is rewarded with {team} deal points (`reward="team"`, positive is good; `"zero_sum"`: '
        "minus the other sides' mean). `infos[agent][\"smear\"]`: the pitcher, the bid, made, each category's side."  # noqa: E501
    )


_SMEAR_TOPICS: tuple[tuple[str, Callable[[Rules], str | None]], ...] = (
    ("Players and cards", _smear_players),
    ("Bidding", _smear_bidding),
    ("Trumps", _smear_trumps),
    ("Before play", _smear_before_play),
    ("Play", _smear_play),
    ("Scoring", _smear_scoring),
    ("Game", _smear_game),
    ("Actions", lambda r: _actions(r)),
    ("Environment", _smear_environment),
)


def topics(rules: Rules) -> dict[str, str]:
    """The description of ``rules`` by topic (label -> sentences), topics that do not apply left out."""
    out = {}
    for label, describe_topic in family(rules).load("topics"):
        text = describe_topic(rules)
        if text:
            out[label] = text
    return out


def describe(rules: Rules) -> str:
    """Markdown: one bullet per topic, every fact read from ``rules``."""
    return "\n".join(f"- **{label}.** {text}" for label, text in topics(rules).items())


# ---------------------------------------------------------------------- presets
def _counts(name: str) -> tuple[int, ...]:
    return get_preset(name).counts


def _variant(name: str, kind: str, key: str) -> str:
    """One reading or version: the topics it changes, at every player count it allows."""
    spec = get_preset(name)
    overrides = spec.readings[key] if kind == "reading" else spec.versions[key]
    default = spec.default_players
    counts = [default] + [n for n in _counts(name) if n != default]
    changed: dict[str, dict[str, list[int]]] = {}  # topic -> its new text -> player counts
    failed: dict[str, list[int]] = {}  # why it cannot be made -> player counts
    at_default: set[str] = set()
    for n in counts:
        base = topics(make_rules(name, n))
        try:
            rules = (
                make_rules(name, n, reading=key) if kind == "reading" else make_rules(name, n, version=key)
            )
        except ValueError as error:
            failed.setdefault(" ".join(str(error).split()), []).append(n)
            continue
        alt = topics(rules)
        for label, _ in family_of(spec.game).load("topics"):
            if base.get(label) == alt.get(label) or label in at_default:
                continue  # unchanged, or changed at the default count: described there
            text = alt.get(label, "No longer applies.")
            changed.setdefault(label, {}).setdefault(text, []).append(n)
        if n == default:
            at_default = set(changed)
    sets = ", ".join(_code(option) for option in overrides) or "nothing"
    call = _code(f'{kind}="{key}"')
    lines = [f"- {call} (sets {sets})" + (":" if changed or failed else ": no change.")]
    for label, texts in changed.items():
        for text, ns in texts.items():
            where = "" if label in at_default else f" (with {_join([str(n) for n in ns], 'or')} players)"
            lines.append(f"  - **{label}**{where}. {text}")
    for message, ns in failed.items():
        lines.append(f"  - Not available with {_join([str(n) for n in ns], 'or')} players: {message}.")
    return "\n".join(lines)


def _passing_short(r: Rules) -> str:
    if r.pass_count == 0 or all(d == "hold" for d in r.pass_directions):
        return "none"
    return f"{r.pass_count}: {', '.join(_direction(d, r.num_players) for d in r.pass_directions)}"


def _first_lead_short(r: Rules) -> str:
    if r.first_lead == "eldest":
        return "eldest hand, any card"
    return f"{_first_lead_card(r)}{'' if r.first_lead == 'lowest_club' else ' (any club)'}"


def _count_table(name: str) -> str:
    rows = {n: make_rules(name, n) for n in _counts(name)}
    default = get_preset(name).default_players

    def column(values: dict[int, str], always: bool = False) -> dict[int, str] | None:
        return values if always or len(set(values.values())) > 1 else None

    def kitty(r: Rules) -> str:
        if r.stock_deal is not None:
            return f"stock {r.stock_size}"
        if not r.kitty_size:
            return "—"
        return f"kitty {r.kitty_size}"

    if get_preset(name).game == "smear":
        columns = {
            "players": {n: f"{n} (default)" if n == default else str(n) for n in rows},
            "sides": column({n: _sides(r) for n, r in rows.items()}, always=True),
            "cards removed": column({n: _cards(r.removed) or "—" for n, r in rows.items()}, always=True),
            "cards each": column({n: str(r.hand_size) for n, r in rows.items()}, always=True),
            "undealt": column({n: str(r.stock_size) for n, r in rows.items()}, always=True),
            "bids": column({n: f"{r.min_bid}–{r.max_bid}" for n, r in rows.items()}),
        }
        shown = {title: values for title, values in columns.items() if values is not None}
        lines = ["| " + " | ".join(shown) + " |", "|" + "---|" * len(shown)]
        return "\n".join(
            lines + ["| " + " | ".join(values[n] for values in shown.values()) + " |" for n in rows]
        )
    columns = {
        "players": {n: f"{n} (default)" if n == default else str(n) for n in rows},
        "cards removed": column({n: _cards(r.removed) or "—" for n, r in rows.items()}, always=True),
        "cards each": column({n: str(r.hand_size) for n, r in rows.items()}, always=True),
        "set aside": column({n: kitty(r) for n, r in rows.items()}),
        "jokers": column({n: str(r.jokers) for n, r in rows.items()}),
        "penalty total": column({n: str(r.penalty_total) for n, r in rows.items()}, always=True),
        "passing": column({n: _passing_short(r) for n, r in rows.items()}),
        "first lead": column({n: _first_lead_short(r) for n, r in rows.items()}),
    }
    shown = {title: values for title, values in columns.items() if values is not None}
    lines = ["| " + " | ".join(shown) + " |", "|" + "---|" * len(shown)]
    lines += ["| " + " | ".join(values[n] for values in shown.values()) + " |" for n in rows]
    return "\n".join(lines)


def describe_preset(name: str) -> str:
    """Markdown for one preset: its description, player range, the rules at its default player
    count, what changes with the player count, and each reading and version in words."""
    spec = get_preset(name)
    low, high = spec.players
    players = f"{low}–{high} players" if low != high else f"{low} players"
    if spec.player_counts:
        players = f"{_join([str(n) for n in spec.player_counts], 'or')} players"
    parts = [
        f"## {_code(name)}",
        spec.description,
        f"{players}, {spec.default_players} by default: "
        f'`make_rules("{name}", num_players=N)`, `hearts-env rules {name} --players N`.',
        f"### With {spec.default_players} players",
        describe(make_rules(name)),
    ]
    if low != high:
        parts += ["### By player count", _count_table(name)]
    record = family_of(spec.game)
    if record.rules_doc is not None:
        doc = record.rules_doc
        parts.insert(2, f"The precise readings of every {record.title} rule: [docs/{doc}]({doc}).")
    if spec.readings:
        parts += [
            "### Readings",
            "Other readings of the sources, each a set of options over the preset "
            f'(`make_rules("{name}", reading=...)`); what each changes:',
            "\n".join(_variant(name, "reading", key) for key in spec.readings),
        ]
    if spec.versions:
        parts += [
            "### Versions",
            f'Named versions of the game (`make_rules("{name}", version=...)`); what each changes:',
            "\n".join(_variant(name, "version", key) for key in spec.versions),
        ]
    return "\n\n".join(parts)


def preset_index() -> str:
    """Markdown table of every preset: its name, player range and description line."""
    lines = ["| preset | players | description |", "|---|---|---|"]
    for name, spec in PRESETS.items():
        low, high = spec.players
        players = f"{low}–{high} ({spec.default_players})" if low != high else str(low)
        if spec.player_counts:
            players = f"{', '.join(map(str, spec.player_counts))} ({spec.default_players})"
        lines.append(f"| [{_code(name)}](#{name}) | {players} | {spec.description} |")
    return "\n".join(lines)


# ---------------------------------------------------------------------- the options table
def _field_docs() -> dict[str, str]:
    """The docstring under each ``Rules`` field, read from the source with ``ast``."""
    tree = ast.parse(inspect.getsource(Rules))
    body = tree.body[0].body  # type: ignore[attr-defined]
    docs = {}
    for node, after in zip(body, body[1:]):
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            docs[node.target.id] = after.value.value
    return docs


def _markdown(doc: str) -> str:
    """A reStructuredText docstring as one line of Markdown for a table cell."""
    text = " ".join(doc.split())
    text = re.sub(r":\w+:`~?([^`<]*?)\s*(?:<[^>]*>)?`", lambda m: f"`{m.group(1).split('.')[-1]}`", text)
    text = text.replace("``", "`")
    text = re.sub(r"\s*\(RULES\.md §[\d, §–-]+\)", "", text)
    text = re.sub(r"RULES\.md §[\d, §–-]+;\s*", "", text)
    return text.replace("|", "\\|")


_CHOICES = {
    "leftover": LEFTOVERS,
    "first_lead": FIRST_LEADS,
    "hearts_break": HEARTS_BREAKS,
    "moon": MOONS,
    "first_trick_all_penalty": FIRST_TRICK_ALL_PENALTY,
    "moon_cards": MOON_CARDS,
    "scoring": SCORINGS,
    "settlement": SETTLEMENTS,
    "episode": EPISODES,
    "illegal_action": ILLEGAL_ACTIONS,
    "bidding": BIDDINGS,
    "team_scoring": TEAM_SCORINGS,
    "game": GAMES,
    "smear_deal": SMEAR_DEALS,
    "moon_bid": MOON_BIDS,
    "trumps": TRUMP_CHOICES,
    "joker_rank": JOKER_RANKS,
    "joker_points": JOKER_POINTS,
}
_SPECIAL_VALUES = {
    "removed": 'cards, e.g. `["2C", "2D"]`',
    "card_points": 'mapping card → points, merged over the preset\'s, e.g. `{"JD": -10}`',
    "pass_directions": "a direction or a list of them: " + ", ".join(_code(d) for d in PASS_DIRECTIONS),
    "teams": "seat tuples, e.g. `[[0, 2], [1, 3]]`",
    "discard_first": 'a card, e.g. `"JS"`, or `None`',
    "categories": "Smear categories: " + ", ".join(_code(c) for c in SMEAR_CATEGORIES),
}


def _values(name: str) -> str:
    if name in _CHOICES:
        return ", ".join(_code(v) for v in _CHOICES[name])
    if name in _SPECIAL_VALUES:
        return _SPECIAL_VALUES[name]
    if name in _BOOLS:
        return "`True`, `False`"
    if name in _INTS:
        low, high, optional = _INTS[name]
        return f"int {_num(low)}…{high}" + (" or `None`" if optional else "")
    raise ValueError(f"Rules field {name!r} has no values described in hearts_env/describe.py")


def _default(name: str) -> str:
    f = next(f for f in fields(Rules) if f.name == name)
    value = f.default_factory() if f.default is MISSING else f.default  # type: ignore[misc]
    if name == "card_points":
        return _points_phrase(Rules(), value)
    if name == "pass_directions":
        return ", ".join(value)
    if isinstance(value, tuple) and not value:
        return "none"
    return _code(value)


def describe_options() -> str:
    """Markdown: every ``Rules`` field (the rule options) with its values, its default and its
    docstring, then the removal tables ``make_rules`` knows."""
    docs = _field_docs()
    lines = [
        "Every field of `hearts_env.rules.Rules`; the defaults are a bare `Rules()`'s (each preset sets "
        "its own, as its section says). The meanings are the fields' docstrings.",
        "",
        "| option | values | default | meaning |",
        "|---|---|---|---|",
    ]
    for f in fields(Rules):
        if f.name == "preset":
            continue
        lines.append(
            f"| {_code(f.name)} | {_values(f.name)} | {_default(f.name)} | {_markdown(docs[f.name])} |"
        )
    versions = sorted({v for spec in PRESETS.values() for v in spec.versions})
    readings = sum(len(spec.readings) for spec in PRESETS.values())
    removals = ", ".join(_code(t) for t in [*REMOVAL_TABLES, *REMOVAL_ORDERS])
    counts = sorted({n for removed in REMOVAL_TABLES.values() for n in removed})
    lines += [
        "",
        "`make_rules` (and so `hearts_env.env`, `vector_env`, `--option`) also takes:",
        "",
        f"- `reading`: one of the preset's readings ({readings} in all, listed under each preset);",
        f"- `version`: one of the preset's versions ({', '.join(_code(v) for v in versions)});",
        f"- `removal`: a removal table, {removals}, instead of the preset's (below); `removed` lists "
        "the cards instead.",
        "",
        "| removal table | " + " | ".join(f"{n} players" for n in counts) + " |",
        "|---|" + "---|" * len(counts),
    ]
    for table, removed in REMOVAL_TABLES.items():
        cells = [" ".join(_c(c) for c in parse_cards(removed[n])) if n in removed else "—" for n in counts]
        lines.append(f"| {_code(table)} | " + " | ".join(cells) + " |")
    lines.append("")
    for table, order in REMOVAL_ORDERS.items():
        lines.append(
            f"The {_code(table)} removal takes out as many cards as the deck (jokers included) needs for "
            f"equal hands, in the order {' '.join(_c(c) for c in parse_cards(order))}."
        )
    return "\n".join(lines)


# ---------------------------------------------------------------------- docs/rules.md
_BLOCK = re.compile(r"<!-- begin (?P<key>[\w:]+) -->\n(?:(?P<body>.*?)\n)?<!-- end (?P=key) -->", re.S)
_NEW_SECTIONS = "<!-- new preset sections go above this line -->"


def generated(key: str) -> str:
    """The text of a generated block: ``index``, ``options`` or ``preset:NAME``."""
    if key == "index":
        return preset_index()
    if key == "options":
        return describe_options()
    kind, _, name = key.partition(":")
    if kind != "preset":
        raise ValueError(f"unknown generated block {key!r}: index, options or preset:NAME")
    return describe_preset(name)


def blocks(document: str) -> dict[str, str]:
    """The generated blocks of a document, by key; a key found twice is a ``ValueError``."""
    found: dict[str, str] = {}
    for m in _BLOCK.finditer(document):
        if m["key"] in found:
            raise ValueError(f"the generated block {m['key']!r} appears twice")
        found[m["key"]] = m["body"] or ""
    return found


def regenerate(document: str) -> str:
    """``document`` with every generated block rewritten from the data, and a new section (its
    block and an empty notes heading) for each preset it lacks. A block for a preset that no
    longer exists is a ``ValueError``: remove that section by hand."""
    stale = [key for key in blocks(document) if key.startswith("preset:") and key[7:] not in PRESETS]
    if stale:
        raise ValueError(f"sections for presets that do not exist: {', '.join(stale)}; remove them")
    out = _BLOCK.sub(
        lambda m: f"<!-- begin {m['key']} -->\n{generated(m['key'])}\n<!-- end {m['key']} -->", document
    )
    missing = [name for name in PRESETS if f"preset:{name}" not in blocks(out)]
    if missing:
        if _NEW_SECTIONS not in out:
            raise ValueError(f"no place for new sections: add the line {_NEW_SECTIONS!r}")
        new = "".join(
            f"<!-- begin preset:{name} -->\n{describe_preset(name)}\n<!-- end preset:{name} -->\n\n"
            "### Notes (hand-written)\n\nTo be written.\n\n"
            for name in missing
        )
        out = out.replace(_NEW_SECTIONS, new + _NEW_SECTIONS)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m hearts_env.describe [PRESET] [--write FILE | --check FILE]``."""
    parser = argparse.ArgumentParser(prog="python -m hearts_env.describe", description=__doc__.split("\n")[0])
    parser.add_argument("preset", nargs="?", help="print this preset's rules")
    parser.add_argument("--write", type=Path, metavar="FILE", help="regenerate FILE's generated blocks")
    parser.add_argument("--check", type=Path, metavar="FILE", help="exit 1 if FILE's blocks are out of date")
    args = parser.parse_args(argv)
    path = args.write or args.check
    if path is not None:
        text = path.read_text(encoding="utf-8")
        new = regenerate(text)
        if args.check:
            if new != text:
                print(f"{path} is out of date: run python -m hearts_env.describe --write {path}")
                return 1
            print(f"{path} is up to date")
        elif new != text:
            path.write_text(new, encoding="utf-8")
            print(f"wrote {path}")
        return 0
    if args.preset:
        print(describe_preset(args.preset))
        return 0
    print(preset_index())
    return 0


if __name__ == "__main__":
    sys.exit(main())
