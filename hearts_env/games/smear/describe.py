"""Smear's rules in words: its topics, and its columns of the table by player count.

:data:`TOPICS` is what :func:`hearts_env.describe.topics` says of Smear rules (the precise
readings behind them are ``docs/smear.md``); :data:`COLUMNS` are the columns of a Smear
preset's table by player count in ``docs/rules.md``. :data:`hearts_env.games.FAMILIES`
names both.
"""

from __future__ import annotations

from hearts_env.core.prose import number, plural, seat_list, symbols
from hearts_env.core.rules import Rules
from hearts_env.core.topics import CARDS_EACH, CARDS_REMOVED, Column, Topic, actions


def _sides(r: Rules) -> str:
    if not r.teams:
        return "every player for himself (cut-throat)"
    return f"{number(len(r.teams))} sides of {number(len(r.teams[0]))}: " + "; ".join(
        seat_list(t) for t in r.teams
    )


def _smear_players(r: Rules) -> str:
    deck = len(r.deck)
    text = f"{r.num_players} players, {_sides(r)}. {deck} cards"
    if r.jokers:
        text += f" ({plural(r.jokers, 'joker')})"
    if r.removed:
        text += f", without {symbols(r.removed)}"
    text += f"; {number(r.hand_size)} cards each"
    undealt = r.stock_size
    if undealt:
        widow = r.widow or 0
        parts = []
        if widow:
            parts.append(
                f"a widow of {number(widow)}" if r.smear_deal == "widow" else f"a kitty of {number(widow)}"
            )
        rest = undealt - widow
        if rest:
            parts.append(
                f"{number(rest)} dead cards" if r.smear_deal == "blind" else f"a stock of {number(rest)}"
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
    keep = number(r.keep)
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


TOPICS: tuple[Topic, ...] = (
    ("Players and cards", _smear_players),
    ("Bidding", _smear_bidding),
    ("Trumps", _smear_trumps),
    ("Before play", _smear_before_play),
    ("Play", _smear_play),
    ("Scoring", _smear_scoring),
    ("Game", _smear_game),
    ("Actions", actions),
    ("Environment", _smear_environment),
)
"""The topics of Smear rules, in the order the description gives them."""

COLUMNS: tuple[Column, ...] = (
    Column("sides", _sides, always=True),
    CARDS_REMOVED,
    CARDS_EACH,
    Column("undealt", lambda r: str(r.stock_size), always=True),
    Column("bids", lambda r: f"{r.min_bid}–{r.max_bid}"),
)
"""The columns of a Smear preset's table by player count, after the player count."""
