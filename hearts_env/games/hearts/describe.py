"""The Hearts family's rules in words: its topics, and its columns of the table by player count.

:data:`TOPICS` is what :func:`hearts_env.describe.topics` says of Hearts-family rules, one
paragraph per topic (players and cards, passing, leads, the first trick, card points, the moon,
decisions, the game's end, chips); :data:`COLUMNS` are the columns of a preset's table by
player count in ``docs/rules.md``. :data:`hearts_env.games.FAMILIES` names both.
"""

from __future__ import annotations

from collections import Counter

from hearts_env.core.cards import JOKERS, NUM_RANKS, NUM_STANDARD_CARDS, SUIT_SYMBOLS, cards_of, parse_card
from hearts_env.core.family import default_reward
from hearts_env.core.prose import (
    code,
    in_play,
    number,
    plural,
    points_phrase,
    seat_list,
    set_phrase,
    symbol,
    symbols,
)
from hearts_env.core.rules import QUEEN_OF_SPADES, SUIT_LETTERS, Rules
from hearts_env.core.topics import CARDS_EACH, CARDS_REMOVED, Column, Topic, actions
from hearts_env.games.hearts.decisions import _TEN_OF_DIAMONDS

_ACE_OF_SPADES, _KING_OF_SPADES, _QUEEN_OF_CLUBS, _QUEEN_OF_DIAMONDS, _QUEEN_OF_HEARTS = (
    parse_card(c) for c in ("AS", "KS", "QC", "QD", "QH")
)
_WORDS = {1: "one", 2: "two", 3: "three", 4: "four", 5: "five", 6: "six"}


def _direction(direction: str, n: int) -> str:
    if direction == "across":
        return "across" if n == 4 else f"across ({n // 2} seats to the left)"
    if direction == "hold":
        return "hold (no pass)"
    return direction


def _first_lead_card(rules: Rules) -> str:
    return symbol(rules.lowest_club)


def _players_and_cards(r: Rules) -> str:
    n = r.num_players
    if r.decks == 2:
        deck = "Two 52-card decks shuffled together (every card twice)"
        if r.removed:
            deck += f", less both copies of {symbols(r.removed)}"
    else:
        deck = "The 52 standard cards"
        if r.removed:
            deck += f" less {symbols(r.removed)}"
    if r.jokers:
        names = ", ".join(code(f"JK{j - 51}") for j in JOKERS[: r.jokers])
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
            else f"The {plural(r.kitty_size, 'card')} that do{'es' if r.kitty_size == 1 else ''} "
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
    cards = plural(r.pass_count, "card")
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
            f"({code('pass')}) or declares Général ({code('general')}): he will take every penalty "
            f"card. The first declaration ends the round. A declarer who succeeds scores 0 and each "
            f"opponent {g}; one who fails scores {g} and the others 0."
        )
    if r.bidding == "auction":
        suits = ", ".join(code(f"suit:{s}") for s in SUIT_LETTERS)
        return (
            f"{when}, eldest hand opens the auction with a bid of 1 to {r.max_bid} chips ({code('bid:1')} "
            f"… {code(f'bid:{r.max_bid}')}; he may not pass); then each player to the dealer bids once: "
            f"{code('pass')}, or more chips than the highest bid so far. The highest bidder adds his bid "
            f"to his deal points, names the penalty suit ({suits}) and leads the first trick with any card."
        )
    partner = symbol(_TEN_OF_DIAMONDS)
    return (
        f"{when}, each player in turn from eldest hand passes ({code('pass')}) or bids to take "
        f"every trick ({code('slam')}); the first bid ends the round. The holder of {partner} becomes "
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
    broken = "a heart" if r.hearts_break == "heart" else f"a heart or {symbol(QUEEN_OF_SPADES)}"
    banned = "No heart" if not r.queen_needs_break else f"Neither a heart nor {symbol(QUEEN_OF_SPADES)}"
    text = (
        f"{banned} may be led before {broken} has been played in the deal (discarded on another "
        "suit, as a rule), unless the leader holds nothing else."
    )
    if r.lead_hearts_if_only_queen:
        text += f" A leader whose only card other than hearts is {symbol(QUEEN_OF_SPADES)} may lead a heart."
    return text


def _first_trick(r: Rules) -> str:
    parts = []
    if r.no_heart_lead_first_trick:
        parts.append("No heart may be led to the first trick unless the leader holds only hearts.")
    if r.no_points_first_trick:
        penalty = set_phrase(r, cards_of(r.penalty_mask))
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
        scores = "scores nothing" if not value else f"scores {number(value)}"
        parts.append(
            "A joker may be played at any time, even by a player who could follow suit; it never "
            f"wins a trick and {scores}. After a joker lead the trick has no suit until the next "
            "card, whose suit the others then follow."
        )
    if r.club_play:
        parts.append(
            f"The holder of {symbol(QUEEN_OF_SPADES)} must play it at the first chance: when void in the "
            f"suit led, or following to a spade trick already headed by {symbol(_ACE_OF_SPADES)} or "
            f"{symbol(_KING_OF_SPADES)}."
        )
    if r.discard_first is not None:
        parts.append(
            f"A player void in the suit led must discard {symbol(r.discard_first)} before any other card."
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
        counts = Counter(c // NUM_RANKS for c in in_play(r) if c < NUM_STANDARD_CARDS)
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
        values = points_phrase(r, r.card_points)
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
                f" Royal scoring: {symbol(_QUEEN_OF_HEARTS)} doubles every heart its taker won in the "
                f"deal, itself included; {symbol(QUEEN_OF_SPADES)} scores nothing for a player who also "
                f"took {symbol(_QUEEN_OF_CLUBS)}; then {symbol(_QUEEN_OF_DIAMONDS)}'s {number(qd)} is "
                f"counted, {floor}. With the hearts doubled the penalty cards are worth "
                f"{r.penalty_total} in all."
            )
        elif r.penalty_mask:
            text += f" The penalty cards are worth {r.penalty_total} in all{copies}."
    if r.no_tricks_bonus:
        text += f" A player who takes no trick scores {number(r.no_tricks_bonus)} (not in a moon deal)."
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
    bonus = not royal and any(r.card_points[c] < 0 for c in in_play(r))
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
                f"after the last trick the shooter chooses {code('moon:add')} ({old}) or "
                f"{code('moon:subtract')} ({new})."
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
    teams = " against ".join(f"seats {seat_list(team)}" for team in r.teams)
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
        text += f", or after {plural(r.max_deals, 'deal')}"
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


def _environment(r: Rules) -> str | None:
    if default_reward(r) != "team":
        return None
    slam = "; the slam bidder and his silent partner are a team for the deal" if r.bidding == "slam" else ""
    return f'Each player is rewarded with his team\'s result (`reward="team"`, the default here{slam}).'


TOPICS: tuple[Topic, ...] = (
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
    ("Actions", actions),
    ("Environment", _environment),
)
"""The topics of Hearts-family rules, in the order the description gives them."""


# ---------------------------------------------------------------------- the table by player count
def _set_aside(r: Rules) -> str:
    if r.stock_deal is not None:
        return f"stock {r.stock_size}"
    if not r.kitty_size:
        return "—"
    return f"kitty {r.kitty_size}"


def _passing_short(r: Rules) -> str:
    if r.pass_count == 0 or all(d == "hold" for d in r.pass_directions):
        return "none"
    return f"{r.pass_count}: {', '.join(_direction(d, r.num_players) for d in r.pass_directions)}"


def _first_lead_short(r: Rules) -> str:
    if r.first_lead == "eldest":
        return "eldest hand, any card"
    return f"{_first_lead_card(r)}{'' if r.first_lead == 'lowest_club' else ' (any club)'}"


COLUMNS: tuple[Column, ...] = (
    CARDS_REMOVED,
    CARDS_EACH,
    Column("set aside", _set_aside),
    Column("jokers", lambda r: str(r.jokers)),
    Column("penalty total", lambda r: str(r.penalty_total), always=True),
    Column("passing", _passing_short),
    Column("first lead", _first_lead_short),
)
"""The columns of a Hearts-family preset's table by player count, after the player count."""
