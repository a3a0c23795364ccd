"""Smear's screen of ``hearts-env play`` (the ``smear_*`` presets): the side scores to the
target, each seat's cards and bid, the bids in turn and the dealer, the pitcher, his bid and
trumps (their order high to low), what the seat took from the stock, widow or kitty and put
away, the categories won so far and the Game count, the last trick and the current one; the
hand shows trumps as its first row, highest first. Discards may be typed several at once. A deal
ends with the contract (made or set back), each category with its card and the side that won it,
and the scores."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

import agents
from hearts_cli.play.game import Game, InputError, by_seat, counted_cards
from hearts_env import card_symbol
from hearts_env.core.cards import cards_of
from hearts_env.games.smear.engine import TrumpTables
from hearts_env.games.smear.observation import bid_decisions
from hearts_env.games.smear.options import SMEAR_CATEGORIES


def _width(text: str) -> int:
    """Columns a text takes in a terminal (🃏 takes two)."""
    return len(text) + text.count("🃏")


SMEAR_HELP = """\
  How to answer:
    a card        QS, Q♠, 10H, TH or 10♥ (jokers JK1, JK2), or the number shown beside it;
                  when discarding, several at once: 1 4 5 or 2C 9D
    a bid         pass, bid:3 (or 3), bid:moon (or moon)
    trumps        suit:H (or H, ♥, hearts)
    q             quit;  ?  this help
  Only the numbered cards are legal now; the others are shown dimmed or without a number.
  Once trumps are named they are the first row of your hand, highest first: the suit, the
  jick (the other jack of its colour) and the jokers. A trump may always be played."""

CATEGORY_NAMES = {name: name.capitalize() for name in SMEAR_CATEGORIES} | {
    "joker1": "Joker",
    "joker2": "Joker 2",
}
"""How the deal summary names each point category (``rules.categories``)."""


@dataclass
class SmearSeen:
    """One seat's view of a Smear table, read from its observation (seats absolute)."""

    hand: list[int]  # 1 per card slot held
    trick: list[int]  # the cards on the table (the record keeps the order they were played in)
    leader: int
    phase: str | None  # None once the deal is over
    bids: list[str | None]  # each seat's bid this deal (pass, bid:N, bid:moon); None before its turn
    pitcher: int | None  # the highest bidder so far
    trumps: int | None  # the trump suit once known
    out: list[int]  # nine-card Smear: the seats out of the deal (no trump left)
    won: list[int]  # per category: 1 my side has scored it, -1 another side, 0 not (yet)
    game_points: list[int]  # card points towards Game each seat has won
    totals: list[int]  # each seat's side's game total before this deal
    deal_index: int
    hand_sizes: list[int]
    stock_left: int  # undealt cards not yet taken: the stock, the widow, the blind
    thrown: list[int]  # the person's discards and thrown-away cards
    received: list[int]  # what the person took from the stock, the widow or the kitty, or drew


class SmearGame(Game[SmearSeen], family="smear"):
    """The Smear screens: the bids, trumps (the first row of the hand), the discards, the
    side scores, and the categories of each deal. The loop, the input and the record of the
    tricks are :class:`Game`'s."""

    help_text = SMEAR_HELP
    phase_names = {"bid": "bidding", "name_suit": "naming trumps", "discard": "discarding", None: "deal over"}

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tables = TrumpTables(self.rules)
        self.bid_names = bid_decisions(self.rules)
        self.sides: list[tuple[int, ...]] = list(self.rules.teams) or [(s,) for s in range(self.n)]
        self.queued: list[int] = []  # discards typed several at a time, still to play
        self.asking: str | None = None

    def _agent(self, spec: str) -> Any:
        """An agent spec that can play Smear: one that reads the Hearts observation (e.g.
        ``strategy``) is refused here, in one line, rather than failing at its first move."""
        agent = super()._agent(spec)
        self.env.reset(seed=self.seed)  # a look at the first decision; run() deals it again
        seen = self.env.observe(self.env.agent_selection)
        first = {key: np.asarray(value)[None] for key, value in seen.items()}
        try:
            agent.act(first, np.random.default_rng(0))
        except KeyError:  # it looked for a piece of the Hearts observation
            raise ValueError(
                f"--opponents {spec}: {agents.parse_spec(spec)[0]} plays the Hearts family, not Smear; "
                "play against smear, random, lowest or ppo"
            ) from None
        return agent

    # ------------------------------------------------------------------ observation
    def seen(self) -> SmearSeen:
        """What the person's seat sees now."""
        obs = self.env.observe(f"player_{self.seat}")["observation"]
        lay, n, rules, me = self.layout, self.n, self.rules, self.seat

        def piece(name: str) -> np.ndarray:
            return lay.view(obs, name)

        def seats(flags: np.ndarray) -> list[int]:
            return [(me + int(r)) % n for r in np.flatnonzero(flags)]

        def one_hot(name: str) -> int | None:
            values = piece(name)
            return int(np.argmax(values)) if values.any() else None

        bids: list[str | None] = [None] * n
        for r, row in enumerate(piece("bids")):
            if row.any():
                bids[(me + r) % n] = self.bid_names[int(np.argmax(row))]
        phase, pitcher = one_hot("phase"), one_hot("pitcher")
        categories = piece("categories")
        stock_left = float(piece("stock_left")[0]) if "stock_left" in lay.slices else 0.0
        return SmearSeen(
            hand=[int(round(float(c))) for c in piece("hand")],
            trick=counted_cards(piece("current_trick").sum(axis=0)),
            leader=(me + int(np.argmax(piece("trick_leader")))) % n,
            phase=None if phase is None else rules.phases[phase],
            bids=bids,
            pitcher=None if pitcher is None else (me + pitcher) % n,
            trumps=one_hot("trumps"),
            out=seats(piece("out")) if "out" in lay.slices else [],
            won=[int(own) - int(other) for own, other in categories],
            game_points=by_seat(piece("game_points"), me, 80),
            totals=by_seat(piece("scores"), me, rules.target_score),
            deal_index=int(round(float(piece("deal_index")[0]) * 10)),
            hand_sizes=by_seat(piece("hand_sizes"), me, rules.hand_size + rules.stock_size),
            stock_left=int(round(stock_left * rules.stock_size)),
            thrown=counted_cards(piece("thrown")),
            received=counted_cards(piece("received")),
        )

    # ------------------------------------------------------------------ the deal
    def start_deal(self) -> None:
        super().start_deal()
        self.queued = []
        self.eldest = int(self.env.agent_selection.rsplit("_", 1)[1])  # the first to bid

    # ------------------------------------------------------------------ trumps and sides
    def is_trump(self, card: int, trumps: int | None) -> bool:
        return trumps is not None and bool(int(self.tables.trumps[trumps]) >> card & 1)

    def trump_order(self, trumps: int) -> list[int]:
        """Every trump of the deck, highest first."""
        return sorted(
            cards_of(int(self.tables.trumps[trumps])), key=lambda c: -int(self.tables.strength[trumps, c])
        )

    def side_of(self, seat: int) -> int:
        return self.rules.team_of[seat]

    def side_name(self, side: int) -> str:
        """``you & P2``, ``P1 & P3``; ``P1`` alone in a cut-throat game."""
        return " & ".join(self.label(s) for s in self.sides[side])

    def side_scores(self, totals: Sequence[int]) -> str:
        """``you & P2 5 · P1 & P3 -2`` from one value per side."""
        return " · ".join(f"{self.side_name(side)} {value}" for side, value in enumerate(totals))

    def bid_text(self, name: str) -> str:
        """``bid:3`` -> ``3``, ``bid:moon`` -> ``moon``, ``pass``."""
        return name.removeprefix("bid:")

    def card_list(self, seen: SmearSeen, cards: list[int]) -> str:
        counts = [0] * self.slots
        for c in cards:
            counts[c] = 1
        return " ".join(self.paint.card(c) for c in self.hand_order(seen, counts))

    # ------------------------------------------------------------------ the screen
    def phase_text(self, seen: SmearSeen) -> str:
        if seen.phase == "playing":
            of = "" if self.rules.smear_deal == "nine_card" else f" of {self.rules.keep}"
            return f"trick {self.tricks_done + 1}{of}"
        return self.phase_name(seen.phase)

    def score_lines(self, seen: SmearSeen) -> list[str]:
        """The side scores in the game, then per seat: cards held and the bid this deal."""
        totals = [seen.totals[seats[0]] for seats in self.sides]
        lines = [f"  Score (game to {self.rules.target_score}): {self.side_scores(totals)}"]
        w = self.width
        lines.append(self.paint(f"  {'':<{w}}{'cards':>7}  bid", "2"))
        for s in range(self.n):
            bid = "-" if seen.bids[s] is None else self.bid_text(seen.bids[s])
            if s == seen.pitcher and seen.phase != "bid":
                bid += "  ← pitcher"
            row = f"  {self.label(s, long=True):<{w}}{seen.hand_sizes[s]:>7}  {bid}"
            lines.append(self.paint.bold(row) if s == self.seat else row)
        return lines

    def table_lines(self, seen: SmearSeen) -> list[str]:
        """Partners, the undealt cards, the bidding or the contract and trumps, what the person
        took and put away, the points won so far, the last and the current trick."""
        lines = []
        if self.rules.teams:
            lines.append(f"  Partners: {' · '.join(self.side_name(side) for side in range(len(self.sides)))}")
        lines += self.undealt_lines(seen)
        if seen.phase == "bid":
            lines += self.bidding_lines(seen)
        else:
            lines += self.contract_lines(seen)
        if seen.received:
            lines.append(f"  You took: {self.card_list(seen, seen.received)} ({self.taken_from(seen)})")
        if seen.thrown:
            lines.append(f"  You put away: {self.card_list(seen, seen.thrown)} (out of play)")
        if seen.out:
            lines.append(f"  Out of the deal (no trump left): {', '.join(self.label(s) for s in seen.out)}")
        if seen.phase == "playing":
            lines += self.won_lines(seen)
        if self.last:
            lines.append(f"  Last trick:  {self.last_text()}")
        if seen.phase == "playing":
            lines.append(f"  This trick:  {self.plays(self.trick) if self.trick else self.lead_text(seen)}")
            lines += self.extra_plays_lines(seen)
        return lines

    def extra_plays_lines(self, seen: SmearSeen) -> list[str]:
        """Nine-card Smear: who holds more than ``keep`` trumps plays the extra ones to the first
        trick, in the same turn."""
        keep = self.rules.keep
        trumps = sum(1 for c in range(self.slots) if seen.hand[c] and self.is_trump(c, seen.trumps))
        if self.rules.smear_deal != "nine_card" or self.tricks_done or trumps <= keep:
            return []
        return [
            f"  You hold {trumps} trumps, more than {keep}: you play {trumps - keep + 1} cards to this trick"
        ]

    def undealt_lines(self, seen: SmearSeen) -> list[str]:
        """What the undealt cards are for, while some are left, before play."""
        left, rules, deal, keep = seen.stock_left, self.rules, self.rules.smear_deal, self.rules.keep
        widow = rules.widow if seen.phase == "bid" else 0  # the pitcher takes it after the bids
        if not left or seen.phase == "playing":
            return []
        if deal == "stock":
            return [f"  Stock: {left} cards face down, for the pitcher"]
        if deal == "nine_card":
            return [
                f"  Stock: {left} cards: once trumps are named, all throw away non-trumps, draw to {keep}"
            ]
        if deal == "widow":
            if widow:
                return [f"  Widow: {widow} cards face down, for the pitcher; stock: {left - widow} cards"]
            draws = f"the others throw away non-trumps and draw to {keep}, the pitcher takes the rest"
            return [f"  Stock: {left} cards: {draws}"]
        if widow:
            return [f"  Kitty: {widow} cards face down, for the pitcher; {left - widow} more out of play"]
        return [f"  Blind: {left} cards face down, out of play"]

    def bids_text(self) -> str:
        """The bids of this deal in turn: ``P1 bid 3 · P2 pass · you bid moon``."""
        bids = [(s, name) for s, name in self.decisions if not name.startswith("suit:")]
        return " · ".join(f"{self.label(s)} {name.replace(':', ' ')}" for s, name in bids)

    def bidding_lines(self, seen: SmearSeen) -> list[str]:
        rules = self.rules
        dealer = (self.eldest - 1) % self.n
        lines = []
        if self.decisions:
            lines.append(f"  Bids: {self.bids_text()}")
        if seen.pitcher is not None:
            lines.append(
                f"  Highest bid: {self.label(seen.pitcher)}, {self.bid_text(seen.bids[seen.pitcher])}"
            )
        all_pass = (
            f"all the others pass, the dealer must bid {rules.min_bid}"
            if rules.dealer_must_bid
            else "all pass, the deal is thrown in"
        )
        lines.append(f"  Dealer: {self.label(dealer)}, bids last (if {all_pass})")
        return lines

    def contract_lines(self, seen: SmearSeen) -> list[str]:
        """The bids, the pitcher and his bid, and trumps (or how they will be named)."""
        lines: list[str] = []
        if seen.pitcher is None:
            return lines
        pitcher = self.label(seen.pitcher)
        bid = self.bid_text(seen.bids[seen.pitcher] or "")
        side = self.side_name(self.side_of(seen.pitcher))
        lines.append(f"  Pitcher: {pitcher}, bid {bid}: {side} must make {bid} points or be set back")
        if seen.trumps is not None:
            lines.append(
                f"  Trumps: {self.suit_label(seen.trumps)}   high to low: {self.trump_text(seen.trumps)}"
            )
        elif self.rules.trumps == "first_lead":
            whose = "your" if seen.pitcher == self.seat else f"{pitcher}'s"
            lines.append(f"  Trumps: the suit of {whose} first lead")
        else:
            lines.append(f"  Trumps: to be named by {pitcher}")
        return lines

    def trump_text(self, trumps: int) -> str:
        """The trump order, the plain 10 … 2 shortened: ``A♥ K♥ Q♥ J♥ J♦ 🃏1 🃏2 10♥ … 2♥``."""
        order = [self.paint.card(c) for c in self.trump_order(trumps)]
        low = [self.paint.card(13 * trumps + rank) for rank in range(8, -1, -1)]
        low = [c for c in low if c in order]
        start = order.index(low[0]) if low else 0
        if len(low) >= 4 and order[start : start + len(low)] == low:
            order[start : start + len(low)] = [low[0], "…", low[-1]]
        return " ".join(order)

    def taken_from(self, seen: SmearSeen) -> str:
        deal, pitching = self.rules.smear_deal, seen.pitcher == self.seat
        if deal == "stock":
            return "the stock"
        if deal == "blind":
            return "the kitty"
        if deal == "widow" and pitching:
            return "the widow" if seen.phase == "name_suit" else "the widow and the rest of the stock"
        return "drawn from the stock"

    def won_lines(self, seen: SmearSeen) -> list[str]:
        """The categories scored in tricks so far (by my side / another) and the Game count."""
        names = self.rules.categories
        mine = [self.category_name(c) for c, w in zip(names, seen.won) if w > 0]
        theirs = [self.category_name(c) for c, w in zip(names, seen.won) if w < 0]
        own = self.side_of(self.seat)
        others = self.side_name(1 - own) if len(self.sides) == 2 else "the others"
        won = [
            f"{who}: {', '.join(cats)}"
            for who, cats in ((self.side_name(own), mine), (others, theirs))
            if cats
        ]
        lines = [f"  Won so far: {' · '.join(won)}"] if won else []
        count = self.game_count(seen)
        if "game" in names and any(count):
            lines.append(f"  Game count (A 4, K 3, Q 2, J 1, 10 10): {self.side_scores(count)}")
        return lines

    def game_count(self, seen: SmearSeen) -> list[int]:
        """Each side's card points towards Game in the tricks it has won."""
        return [sum(seen.game_points[s] for s in seats) for seats in self.sides]

    def lead_text(self, seen: SmearSeen) -> str:
        if seen.leader != self.seat:
            return "-"
        if self.tricks_done == 0 and seen.pitcher == self.seat:
            if self.rules.trumps == "first_lead":
                return "(you lead: your card names trumps; not the joker)"
            if self.rules.pitcher_leads_trump:
                return "(you lead: a trump, if you hold one)"
        return "(you lead)"

    def hand_groups(self, seen: SmearSeen, hand: list[int]) -> list[tuple[str, list[int]]]:
        """Once trumps are known: the trumps highest first, then the other suits (the jick is a
        trump, not a card of its printed suit)."""
        t = seen.trumps
        if t is None:
            return super().hand_groups(seen, hand)
        held = [c for c in range(self.slots) if hand[c]]
        groups = [(f"{self.suit_label(t)} trumps", [c for c in self.trump_order(t) if hand[c]])]
        for suit in range(4):
            if suit != t:
                cards = [c for c in reversed(held) if c < 52 and c // 13 == suit and not self.is_trump(c, t)]
                groups.append((f"{self.suit_label(suit)}{'':7}", cards))
        return groups

    def decision_lines(self, seen: SmearSeen, offered: list[str]) -> list[str]:
        if seen.phase == "discard":
            return self.discard_lines(seen)
        if not offered:
            return []
        rules = self.rules
        lines = [f"  Your decision: {self.choices(offered)}"]
        if seen.phase == "name_suit":
            bid = self.bid_text(seen.bids[self.seat] or "")
            how = "suit:H, or H, ♥, hearts"
            lines.append(
                f"    you pitch with bid {bid}: name trumps ({how}); your side must make {bid} points"
            )
        elif offered == [f"bid:{rules.min_bid}"]:
            lines.append(f"    everybody else passed: as the dealer you must bid {rules.min_bid}")
        elif offered == ["pass"]:
            lines.append("    no bid is left above the highest: you pass")
        else:
            worth = ", ".join(
                self.category_name(c) + ("" if SMEAR_CATEGORIES[c] == 1 else f" ({SMEAR_CATEGORIES[c]})")
                for c in rules.categories
            )
            lines.append(
                f"    bid:N (or just N): your side undertakes to make N of the {rules.smear_points} points:"
            )
            lines.append(f"      {worth}")
            lines.append("    the highest bid pitches: names trumps and leads; pass: no bid")
            if "bid:moon" in offered:
                lines.append("    moon: your side undertakes to score every point")
        return lines

    def discard_lines(self, seen: SmearSeen) -> list[str]:
        keep, deal = self.rules.keep, self.rules.smear_deal
        more = sum(seen.hand) - keep
        which = {
            "stock": f"no trump, unless you hold more than {keep} trumps",
            "widow": "no scoring trump (A, J, 10, 3, 2, the jick, the jokers) while you hold another card",
        }.get(deal, "any card: trumps are not named yet, your first lead names them")
        return [
            f"  Discard down to {keep}: choose {more} more, one at a time or several at once (e.g. 1 3 4)",
            f"    {which}",
        ]

    def category_name(self, name: str) -> str:
        if name == "joker1" and self.rules.jokers == 2:
            return "Joker 1"
        return CATEGORY_NAMES[name]

    def card_question(self, seen: SmearSeen) -> str | None:
        if seen.phase == "discard":
            return f"Discard ({sum(seen.hand) - self.rules.keep} more) > "
        return None

    def out_note(self, seen: SmearSeen) -> str | None:
        """Nine-card Smear: no trump left; the widow game: a short hand played out while the
        others still hold cards (seen at the start of a trick: the last trick is not it)."""
        if seen.phase != "playing":
            return None
        if self.seat in seen.out:
            return "You hold no trump: you are out of this deal, the others play on."
        if not any(seen.hand) and not seen.trick:
            return "You are out of cards: the others play on."
        return None

    # ------------------------------------------------------------------ several discards at once
    def human_turn(self, phase: str | None) -> bool:
        """As :meth:`Game.human_turn`; discards typed together are played one after another."""
        if phase == "discard" and self.queued:
            card = self.queued.pop(0)
            try:
                self.env.step(card)
            except ValueError as error:
                self.queued = []
                self.write(self.paint(f"  ✗ {self.reason(error)}", "33"))
            else:
                self.record(self.seat, card, phase)
                return True
        self.queued, self.asking = [], phase
        return super().human_turn(phase)

    def parse(self, text: str, numbered: list[int], offered: list[str]) -> int | str:
        """As :meth:`Game.parse`; while discarding, several cards (or numbers) at once."""
        self.queued = []
        words = text.replace(",", " ").split()
        if self.asking != "discard" or len(words) < 2:
            return super().parse(text, numbered, offered)
        read_one = super().parse  # (a comprehension has no zero-argument super())
        cards = [read_one(word, numbered, offered) for word in words]
        if not all(isinstance(c, int) and c < self.slots for c in cards):
            raise InputError(f"discard cards only: {self.expected(numbered, offered)}")
        if len(set(cards)) < len(cards):
            raise InputError("a card is named twice")
        more = sum(self.seen().hand) - self.rules.keep
        if len(cards) > more:
            raise InputError(f"{len(cards)} cards: you discard {more} more")
        self.queued = [int(c) for c in cards[1:]]
        return cards[0]

    # ------------------------------------------------------------------ between deals
    def deal_over(self) -> bool:
        """Show the deal's result: the contract, each category and who won it, the scores;
        True if the game is over."""
        info = self.env.infos[f"player_{self.seat}"]
        seen = self.seen()
        lines = ["", *self.headline(f"Deal {seen.deal_index + 1} is over")]
        if self.last:
            lines.append(f"  Last trick:  {self.last_text()}")
        if self.decisions:
            lines.append(f"  Bids: {self.bids_text()}")
        if info["cancelled"]:
            lines.append(
                "  Everybody passed: the deal is thrown in, nobody scores, the same dealer deals again."
            )
        else:
            smear = info["smear"]
            lines.append(self.contract_result(smear, seen))
            lines += self.category_lines(smear, seen)
            deal = [f"{v:+d}" for v in smear["side_points"]]
            lines.append(f"  This deal: {self.side_scores(deal)}")
        totals = [self.env.infos[f"player_{seats[0]}"]["total_points"] for seats in self.sides]
        lines.append(f"  Score (game to {self.rules.target_score}): {self.side_scores(totals)}")
        over = bool(info["game_over"])
        if over:
            lines.append(f"  Game over: {self.winner_text(totals)}")
        self.write("\n".join(lines))
        return over

    def contract_result(self, smear: dict[str, Any], seen: SmearSeen) -> str:
        """``P1 pitched bid 3, trumps ♥: P1 & P3 made 4 points, the bid is made, +4``."""
        pitcher, side = smear["pitcher"], self.side_of(smear["pitcher"])
        bid = self.bid_text(seen.bids[pitcher] or f"bid:{smear['bid']}")
        trumps = "" if seen.trumps is None else f", trumps {self.suit_label(seen.trumps)}"
        made, scored = smear["made_points"][side], smear["side_points"][side]
        who = self.label(pitcher).capitalize()
        head = f"  {who} pitched bid {bid}{trumps}: {self.side_name(side)} made {made} points"
        result = (
            f"the bid is made, {scored:+d}" if smear["made"] else f"short of {bid}: set back, {scored:+d}"
        )
        return self.paint.bold(f"{head}, {result}")

    def category_lines(self, smear: dict[str, Any], seen: SmearSeen) -> list[str]:
        """Each category: its card (High and Low: the highest and lowest plain trump in play)
        and the side that won it."""
        lines = ["  Points:"]
        t = seen.trumps
        plain = sorted(c for c in self.played if t is not None and c < 52 and c // 13 == t)
        for name, side in smear["categories"].items():
            card = self.category_card(name, t, plain)
            who = {-1: "not in play", -2: "nobody (a tie)"}.get(side) or self.side_name(side)
            if name == "game":
                who = f"{who}   (card points: {self.side_scores(self.game_count(seen))})"
            value = SMEAR_CATEGORIES[name]
            title = self.category_name(name) + ("" if value == 1 else f" ({value})")
            shown = self.paint.card(card) if card is not None else ""
            pad = " " * (5 - (_width(card_symbol(card)) if card is not None else 0))
            lines.append(f"    {title:<10}{shown}{pad}→ {who}")
        return lines

    def category_card(self, name: str, trumps: int | None, plain: list[int]) -> int | None:
        """The card a category is about (None for Game, or when unknown)."""
        if trumps is None:
            return None
        if name in ("high", "low"):
            return (plain[-1] if name == "high" else plain[0]) if plain else None
        rank = {"two": 0, "trey": 1, "ten": 8, "jack": 9}
        if name in rank:
            return 13 * trumps + rank[name]
        if name == "jick":
            return int(self.tables.jick[trumps])
        return {"joker1": 52, "joker2": 53}.get(name)

    def winner_text(self, totals: list[int]) -> str:
        winner = int(self.env.unwrapped.table.game_info([0])["winner"][0])
        if winner < 0:
            return "nobody wins (a tie at the top)."
        name = self.side_name(winner)
        verb = "win" if self.seat in self.sides[winner] or len(self.sides[winner]) > 1 else "wins"
        return f"{name} {verb} with {totals[winner]}."
