"""The Hearts family's screen of ``hearts-env play``: the scores (card points this deal, game
totals before it), the pass, the decisions (declarations, bids), the penalty suit, the stock and
the hand sizes (Domino Hearts), the kitty, the last and the current trick, the hand by suit."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from hearts_cli.play.game import Game, by_seat, counted_cards
from hearts_env.core.cards import SUIT_SYMBOLS, SUITS

HELP = """\
  How to answer:
    a card        QS, Q♠, 10H, TH or 10♥ (jokers JK1, JK2), or the number shown beside it
    a decision    its name as offered: pass, general, slam, bid:5 (or 5), suit:S (or S, ♠),
                  moon:add (or add), moon:subtract (or subtract)
    q             quit;  ?  this help
  Only the numbered cards are legal now; the others are shown dimmed or without a number."""


@dataclass
class Seen:
    """One seat's view of the table, read from its observation (seats absolute)."""

    hand: list[int]  # count per card slot (2 where a two-deck hand holds both copies)
    trick: list[int]  # cards on the table, the lead first
    leader: int
    points: list[int]  # card points taken this deal, per seat
    totals: list[int]  # game totals before this deal, per seat
    phase: str | None  # None once the deal is over
    direction: str
    broken: bool
    passed: list[int]
    received: list[int]
    kitty: list[int]
    partners: list[int]
    hand_sizes: list[int] | None
    stock_left: int | None
    deal_index: int


class HeartsGame(Game[Seen], family="hearts"):
    """The Hearts family's screens (every preset but Smear's)."""

    help_text = HELP
    phase_names = {
        "declare": "declarations",
        "bid": "auction",
        "name_suit": "naming the penalty suit",
        "moon_choice": "the moon choice",
        None: "deal over",
    }

    # ------------------------------------------------------------------ observation
    def seen(self) -> Seen:
        """What the person's seat sees now."""
        obs = self.env.observe(f"player_{self.seat}")["observation"]
        lay, n, rules = self.layout, self.n, self.rules

        def piece(name: str) -> np.ndarray:
            return lay.view(obs, name)

        def absolute(values: np.ndarray, scale: float) -> list[int]:
            return by_seat(values, self.seat, scale)

        trick = [int(np.flatnonzero(row)[0]) for row in piece("current_trick") if row.any()]
        phases = piece("phase")
        phase = rules.phases[int(np.argmax(phases))] if phases.any() else None
        partners = []
        if "partners" in lay.slices:
            partners = [(self.seat + int(r)) % n for r in np.flatnonzero(piece("partners"))]
        stock = "stock_left" in lay.slices
        return Seen(
            hand=[int(round(float(c))) for c in piece("hand")],
            trick=trick,
            leader=(self.seat + int(np.argmax(piece("trick_leader")))) % n,
            points=absolute(piece("points_taken"), 26),
            totals=absolute(piece("scores"), rules.target_score),
            phase=phase,
            direction=("left", "right", "across", "hold")[int(np.argmax(piece("pass_direction")))],
            broken=bool(piece("hearts_broken")[0]),
            passed=counted_cards(piece("passed")),
            received=counted_cards(piece("received")),
            kitty=counted_cards(piece("kitty")) if "kitty" in lay.slices else [],
            partners=partners,
            hand_sizes=absolute(piece("hand_sizes"), rules.hand_size) if stock else None,
            stock_left=int(round(float(piece("stock_left")[0]) * rules.stock_size)) if stock else None,
            deal_index=int(round(float(piece("deal_index")[0]) * 10)),
        )

    def out_note(self, seen: Seen) -> str | None:
        """Why the person sits out the rest of the deal (Domino Hearts: an empty hand), if so."""
        if seen.phase == "playing" and not any(seen.hand):
            return "You are out of cards: the others play on."
        return None

    # ------------------------------------------------------------------ the screen
    def shown_hand(self, seen: Seen) -> list[int]:
        """The hand without the cards chosen to pass: they stay in it until the exchange."""
        hand = list(seen.hand)
        if seen.phase == "passing":
            for c in seen.passed:
                hand[c] -= 1
        return hand

    def numbering(self, seen: Seen, legal: list[int]) -> list[int]:
        """While passing, every card of the hand, the ones already chosen included: each card
        keeps its number from the first pick to the exchange (a chosen one's number is refused
        with the engine's reason); otherwise the legal cards."""
        if seen.phase == "passing":
            return self.hand_order(seen, seen.hand)
        return super().numbering(seen, legal)

    def phase_text(self, seen: Seen) -> str:
        rules = self.rules
        if seen.phase == "passing":
            offset = rules.pass_offset(seen.direction)
            to = self.label((self.seat + offset) % self.n)
            return f"passing {rules.pass_count} cards {seen.direction}, to {to}"
        if seen.phase == "playing":
            text = f"trick {self.tricks_done + 1}"
            if not rules.stock_size:  # Domino Hearts: as many tricks as the draws make
                text += f" of {rules.hand_size}"
            if rules.hearts_break != "free":
                text += ", hearts broken" if seen.broken else ", hearts not broken"
            return text
        return self.phase_name(seen.phase)

    def score_lines(self, seen: Seen) -> list[str]:
        """Per seat: card points this deal and the game totals (and hand sizes in Domino Hearts)."""
        return self.scoreboard(seen.points, seen.totals, seen.hand_sizes, "deal", "game")

    def scoreboard(
        self, first: list[int], second: list[int], sizes: list[int] | None, a: str, b: str
    ) -> list[str]:
        w = self.width
        head = f"  {'':<{w}}" + (f"{'cards':>7}" if sizes is not None else "") + f"{a:>7}{b:>7}"
        rows = [self.paint(head, "2")]
        for s in range(self.n):
            name = self.label(s, long=True)
            cards = f"{sizes[s]:>7}" if sizes is not None else ""
            row = f"  {name:<{w}}{cards}{first[s]:>7}{second[s]:>7}"
            rows.append(self.paint.bold(row) if s == self.seat else row)
        return rows

    def table_lines(self, seen: Seen) -> list[str]:
        """Partners, stock, kitty, passes, decisions, the last and the current trick."""
        rules, lines = self.rules, []
        if rules.teams:
            teams = " · ".join(" & ".join(self.label(s) for s in team) for team in rules.teams)
            lines.append(f"  Partners: {teams}")
        elif seen.partners:
            lines.append(f"  Your partner: {', '.join(self.label(s) for s in seen.partners)}")
        if seen.stock_left is not None:
            lines.append(f"  Stock: {seen.stock_left} cards (who cannot follow suit draws)")
        if rules.kitty_size:
            if seen.kitty:
                lines.append(f"  Kitty (yours): {' '.join(self.paint.card(c) for c in seen.kitty)}")
            elif self.tricks_done == 0:
                lines.append(f"  Kitty: {rules.kitty_size} cards face down, for the first trick's winner")
        if seen.phase == "passing" and seen.passed:
            order = self.hand_order(seen, seen.hand)  # the numbers of the hand, kept until the exchange
            chosen = (
                f"{self.paint.bold(f'[{order.index(c) + 1}]')} {self.paint.card(c)}" for c in seen.passed
            )
            lines.append(f"  Chosen to pass: {'  '.join(chosen)}")
        elif seen.passed or seen.received:
            offset = rules.pass_offset(seen.direction)
            to, source = self.label((self.seat + offset) % self.n), self.label((self.seat - offset) % self.n)
            lines.append(
                f"  You passed {' '.join(self.paint.card(c) for c in seen.passed)} to {to}, received "
                f"{' '.join(self.paint.card(c) for c in seen.received)} from {source}"
            )
        if self.decisions:
            lines.append(f"  Decisions: {self.decision_text()}")
        if rules.bidding == "auction" and seen.phase in ("playing", None):
            named = [name for _, name in self.decisions if name.startswith("suit:")]
            suit = SUITS.index(named[-1][-1]) if named else 2
            lines.append(f"  Penalty suit: {SUIT_SYMBOLS[suit]}" + ("" if named else " (nobody bid)"))
        if self.last:
            lines.append(f"  Last trick:  {self.last_text()}")
        if seen.phase == "playing":
            lead = "(you lead)" if seen.leader == self.seat else "-"
            lines.append(f"  This trick:  {self.plays(self.trick) if self.trick else lead}")
        return lines

    def decision_text(self) -> str:
        """The decisions of this deal in the order they were made: ``P1 pass · P2 bid:3``."""
        return " · ".join(f"{self.label(s)} {name}" for s, name in self.decisions)

    def decision_lines(self, seen: Seen, offered: list[str]) -> list[str]:
        """The offered decisions and what they mean (nothing when a card is asked for)."""
        if not offered:
            return []
        rules = self.rules
        lines = [f"  Your decision: {self.choices(offered)}"]
        notes = {
            "declare": (
                f"general: you undertake to take every trick (made: each opponent scores "
                f"{rules.general_points}; failed: you score {rules.general_points}); pass: no declaration"
                if rules.bidding == "general"
                else "slam: you bid to take every trick; the holder of 10♦ becomes your silent partner; "
                "pass: no bid"
            ),
            "bid": "bid:N offers N chips for naming the penalty suit (and leading); pass: no bid",
            "name_suit": "you won the auction: name the penalty suit (its cards score 1 each)",
            "moon_choice": "you shot the moon: moon:add gives the penalty total to every other player, "
            "moon:subtract takes it off your own total",
        }
        if seen.phase in notes:
            lines.append(f"    {notes[seen.phase]}")
        return lines

    def card_question(self, seen: Seen) -> str | None:
        if seen.phase == "passing":
            return f"Pass card {len(seen.passed) + 1} of {self.rules.pass_count} > "
        return None

    # ------------------------------------------------------------------ between deals
    def deal_over(self) -> bool:
        """Show the deal's result; True if the game is over."""
        infos = self.env.infos
        info = [infos[f"player_{s}"] for s in range(self.n)]
        seen = self.seen()
        lines = ["", *self.headline(f"Deal {seen.deal_index + 1} is over")]
        if self.last:
            lines.append(f"  Last trick:  {self.last_text()}")
        if self.decisions:
            lines.append(f"  Decisions: {self.decision_text()}")
        if seen.hand_sizes is not None and any(seen.hand_sizes):
            holder = int(np.argmax(seen.hand_sizes))
            who = "you" if holder == self.seat else self.label(holder)
            lines.append(f"  {who.capitalize()} held the last cards: those and the stock go to {who}.")
        if info[0].get("cancelled"):
            lines.append("  The deal is cancelled: nobody scores; the same dealer deals again.")
        lines += self.scoreboard(
            [i["deal_points"] for i in info], [i["total_points"] for i in info], None, "deal", "total"
        )
        if self.rules.teams:
            teams = [
                (" & ".join(self.label(s) for s in t), info[t[0]]["team_points"]) for t in self.rules.teams
            ]
            lines.append(f"  Team points: {' · '.join(f'{names} {points}' for names, points in teams)}")
        if "chips" in info[0]:
            chips = " · ".join(f"{self.label(s)} {info[s]['chips']:g}" for s in range(self.n))
            lines.append(f"  Chips: {chips}")
        over = bool(info[0].get("game_over"))
        if over:
            totals = [i["total_points"] for i in info]
            best = min(totals)
            winners = [self.label(s) for s in range(self.n) if totals[s] == best]
            lines.append(f"  Game over: lowest total {best}: {' and '.join(winners)}.")
        self.write("\n".join(lines))
        return over
