"""``hearts-env play``: a person plays one seat in the terminal against agents.

Example::

    hearts-env play --preset black_maria --seat 0 --opponents ppo,strategy

The other seats get the ``--opponents`` agent specs in seat order, repeated to fill the table
(``ppo`` plays the shipped checkpoint of the preset; where none ships, the command says so in
one line). The person sees only what the seat may see: the observation of the PettingZoo env
(:func:`hearts_env.env`), its action mask, and the public plays and decisions of the others, in
the order they happen. The passes of the others stay hidden.

Every turn shows the table: the scores (card points this deal, game totals before it), the pass
direction while passing, the decisions so far (bids, declarations), the last trick and the
current one with who played what, the stock and the hand sizes in Domino Hearts, and the hand
sorted by suit with the legal cards numbered. A card is typed as ``QS``, ``Q♠``, ``10H``, ``TH``
or its number; a decision by name (``pass``, ``general``, ``bid:5`` or ``5``, ``suit:S`` or
``S``, ``moon:add`` or ``add``); ``q`` quits, ``?`` explains. An input that is not a card or not
legal is refused with the reason (the engine's, for an illegal card) and asked again.

The environment always runs with ``illegal_action="raise"`` and one deal per episode (the
command asks between deals whether to go on), whatever ``--option`` says about those two.
Colours (ANSI) only when stdout is a terminal, and not with ``NO_COLOR`` set or ``--no-color``.
Dependency-free: plain ``print`` and ``input``.
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import warnings
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

import agents
import hearts_env
from evaluation.flags import (
    add_debug,
    add_option_flag,
    agent_spec,
    comma_list,
    non_negative_int,
    positive_int,
)
from hearts_env import PRESETS, card_symbol, parse_card
from hearts_env.cards import SUIT_SYMBOLS, SUITS

QUIT_WORDS = ("q", "quit", "exit")
HELP_WORDS = ("?", "help")
RULE = "═" * 72
SUIT_WORDS = {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}

HELP = """\
  How to answer:
    a card        QS, Q♠, 10H, TH or 10♥ (jokers JK1, JK2), or the number shown beside it
    a decision    its name as offered: pass, general, slam, bid:5 (or 5), suit:S (or S, ♠),
                  moon:add (or add), moon:subtract (or subtract)
    q             quit;  ?  this help
  Only the numbered cards are legal now; the others are shown dimmed or without a number."""


# ---------------------------------------------------------------------- the command
def add_parser(commands: argparse._SubParsersAction) -> argparse.ArgumentParser:
    """Register ``play`` on the ``hearts-env`` sub-command parsers."""
    p = commands.add_parser(
        "play",
        help="play one seat yourself in the terminal against agents",
        description="A person plays one seat against agents, deal by deal, in the terminal.",
    )
    p.add_argument("--preset", default="hearts", help="preset name (default: hearts)")
    p.add_argument(
        "--players", type=positive_int, default=None, help="players at the table (default: the preset's)"
    )
    p.add_argument("--seat", type=non_negative_int, default=0, help="your seat, 0 .. players-1 (default: 0)")
    p.add_argument(
        "--opponents", type=comma_list(agent_spec, "agent spec"), metavar="A,B", default=("strategy",),
        help="agent specs for the other seats, in seat order and repeated to fill the table "
        "(default: strategy), e.g. ppo,strategy or random",
    )  # fmt: skip
    add_option_flag(p)
    p.add_argument("--seed", type=non_negative_int, default=None, help="seed of the deals (default: random)")
    p.add_argument(
        "--deals", type=positive_int, default=None, help="stop after this many deals (default: at game end)"
    )
    p.add_argument("--no-color", action="store_true", help="no ANSI colours")
    add_debug(p, top=False)
    p.set_defaults(run=run)
    return p


def run(args: argparse.Namespace) -> int:
    """Run ``hearts-env play`` with parsed ``args``; returns the exit status."""
    color = sys.stdout.isatty() and not args.no_color and not os.environ.get("NO_COLOR")
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    game = Game(
        preset=args.preset,
        seat=args.seat,
        opponents=list(args.opponents),
        num_players=args.players,
        options=dict(args.option),
        seed=seed,
        deals=args.deals,
        color=color,
    )
    try:
        return game.run()
    except KeyboardInterrupt:
        print("\nStopped.")
        return 130


# ---------------------------------------------------------------------- what the seat sees
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


def _cards(counts: np.ndarray) -> list[int]:
    """Card indices of a count vector, each as often as it is counted."""
    return [int(c) for c in np.flatnonzero(counts > 0.5) for _ in range(int(round(float(counts[c]))))]


class Paint:
    """ANSI colours when ``on``, plain text otherwise."""

    def __init__(self, on: bool) -> None:
        self.on = on

    def __call__(self, text: str, *codes: str) -> str:
        if not self.on or not codes:
            return text
        return f"\x1b[{';'.join(codes)}m{text}\x1b[0m"

    def card(self, card: int, dim: bool = False) -> str:
        red = card < 52 and card // 13 in (1, 2)
        return self(card_symbol(card), *(("31",) if red else ()), *(("2",) if dim else ()))

    def bold(self, text: str) -> str:
        return self(text, "1")


class InputError(Exception):
    """An input that is not an answer: the message says why; the person is asked again."""


# ---------------------------------------------------------------------- the game
class Game:
    """One person at a table of agents, played through the PettingZoo env."""

    def __init__(
        self,
        preset: str,
        seat: int,
        opponents: Sequence[str],
        num_players: int | None,
        options: dict[str, Any],
        seed: int,
        deals: int | None,
        color: bool,
        read: Callable[[str], str] = input,
        write: Callable[[str], None] = print,
    ) -> None:
        options = {k: v for k, v in options.items() if k not in ("illegal_action", "episode")}
        if "num_players" in options:  # --option num_players=N is --players N
            given = options.pop("num_players")
            num_players = given if num_players is None else num_players
        self.rules = hearts_env.make_rules(preset, num_players=num_players, **options)
        n = self.rules.num_players
        if not 0 <= seat < n:
            raise ValueError(f"--seat {seat}: {preset} with {n} players has seats 0..{n - 1}")
        self.env = hearts_env.env(preset, num_players=n, illegal_action="raise", episode="deal", **options)
        self.preset, self.seat, self.n, self.seed, self.deals = preset, seat, n, seed, deals
        self.names: tuple[str, ...] = self.env.unwrapped.action_names
        self.slots = self.rules.card_slots
        self.layout = hearts_env.layout(self.rules)
        self.paint = Paint(color)
        self.read, self.write = read, write
        self.rng = np.random.default_rng(seed)
        others = [s for s in range(n) if s != seat]
        self.specs = {s: opponents[i % len(opponents)] for i, s in enumerate(others)}
        self._notes: set[str] = set()
        self.agents = {s: self._agent(spec) for s, spec in self.specs.items()}
        width = max(len(self.label(s, long=True)) for s in range(n))
        self.width = max(width, 8)
        self._decision_keys = self._decision_names()

    def _agent(self, spec: str) -> agents.Agent:
        name, params = agents.parse_spec(spec)
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                agent = agents.from_spec(spec, self.rules)
        except FileNotFoundError as error:
            if name == "ppo" and "checkpoint" not in params:
                what = str(error).split(";")[0]
                raise ValueError(
                    f"--opponents {spec}: {what}; play against other agents (e.g. --opponents strategy) "
                    "or give one with ppo:checkpoint=PATH"
                ) from None
            raise ValueError(f"--opponents {spec}: {error}") from None
        except ImportError as error:
            raise ValueError(f"--opponents {spec}: {error}") from None
        for warning in caught:
            note = " ".join(str(warning.message).split())
            if note not in self._notes:  # once, not once per seat
                self._notes.add(note)
                print(f"note: {note}", file=sys.stderr)
        return agent

    # ------------------------------------------------------------------ names
    def label(self, seat: int, long: bool = False) -> str:
        """``you`` for the person, ``P2`` (``P2 strategy`` when ``long``) for an agent."""
        if seat == self.seat:
            return "you"
        return f"P{seat} {self.specs[seat]}" if long else f"P{seat}"

    def _decision_names(self) -> dict[str, int]:
        """Every way to type a decision of these rules -> its action index."""
        keys: dict[str, int] = {}
        for index in range(self.slots, len(self.names)):
            name = self.names[index]
            keys[name.lower()] = index
            head, _, tail = name.partition(":")
            if tail:
                keys.setdefault(tail.lower(), index)
                if head == "suit":
                    suit = SUITS.index(tail)
                    keys[SUIT_SYMBOLS[suit]] = index
                    keys[[w for w, s in SUIT_WORDS.items() if s == tail][0]] = index
        return keys

    # ------------------------------------------------------------------ observation
    def seen(self) -> Seen:
        """What the person's seat sees now."""
        obs = self.env.observe(f"player_{self.seat}")["observation"]
        lay, n, rules = self.layout, self.n, self.rules

        def piece(name: str) -> np.ndarray:
            return lay.view(obs, name)

        def absolute(values: np.ndarray, scale: float) -> list[int]:
            out = [0] * n
            for r, v in enumerate(values):
                out[(self.seat + r) % n] = int(round(float(v) * scale))
            return out

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
            passed=_cards(piece("passed")),
            received=_cards(piece("received")),
            kitty=_cards(piece("kitty")) if "kitty" in lay.slices else [],
            partners=partners,
            hand_sizes=absolute(piece("hand_sizes"), rules.hand_size) if stock else None,
            stock_left=int(round(float(piece("stock_left")[0]) * rules.stock_size)) if stock else None,
            deal_index=int(round(float(piece("deal_index")[0]) * 10)),
        )

    # ------------------------------------------------------------------ the loop
    def run(self) -> int:
        """Play deals until the game ends (or ``deals`` are played, or the person quits)."""
        description = PRESETS[self.preset].description
        self.write(f"hearts-env play — {self.preset}: {description}")
        where = {(self.seat + 1) % self.n: " (on your left)", (self.seat - 1) % self.n: " (on your right)"}
        table = ", ".join(f"seat {s} {self.label(s, long=True)}{where.get(s, '')}" for s in range(self.n))
        self.write(f"{self.n} players: {table}. Seed {self.seed} (replay with --seed {self.seed}).")
        self.write("Type ? for help, q to quit.")
        self.env.reset(seed=self.seed)
        played = 0
        while True:
            if not self.play_deal():
                self.write("Bye.")
                return 0
            played += 1
            over = self.deal_over()
            if (self.deals is None and over) or (self.deals is not None and played >= self.deals):
                self.write("Thanks for playing.")
                return 0
            if over:
                self.write("A new game starts with the next deal.")
            if not self.ask_continue():
                self.write("Bye.")
                return 0
            self.env.reset()

    def play_deal(self) -> bool:
        """Play one deal; False if the person quit."""
        self.trick: list[tuple[int, int]] = []
        self.last: tuple[list[tuple[int, int]], int] | None = None
        self.decisions: list[tuple[int, str]] = []
        self.tricks_done = 0
        self.out_noted = False
        env = self.env
        while True:
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                return True
            seat = int(agent.rsplit("_", 1)[1])
            seen = self.seen()
            phase = seen.phase
            if phase == "playing" and not any(seen.hand) and not self.out_noted:
                self.out_noted = True  # Domino Hearts: an empty hand drops out
                self.write("\n  You are out of cards: the others play on.")
            if seat != self.seat:
                obs = env.observe(agent)
                self.step(seat, self.agents[seat].act_one(obs, self.rng), phase)
                continue
            if not self.human_turn(phase):
                return False

    def step(self, seat: int, action: int, phase: str | None) -> None:
        """Play ``action`` for ``seat`` and keep the public record (tricks, decisions)."""
        self.env.step(int(action))
        self.record(seat, action, phase)

    def record(self, seat: int, action: int, phase: str | None) -> None:
        """Keep the public record of a step just played: the tricks and the decisions (the
        passes of the others are not public, and are not kept)."""
        if action >= self.slots:
            self.decisions.append((seat, self.names[action]))
        elif phase == "playing":
            self.trick.append((seat, int(action)))
            after = self.seen()
            if not after.trick:  # the trick is complete: its winner leads next
                taker = after.leader
                if self.rules.stock_size:  # Domino Hearts: a winner who is out hands the lead on
                    lead = self.trick[0][1] // 13
                    taker = max((c, s) for s, c in self.trick if c // 13 == lead)[1]
                self.last = (self.trick, taker)
                self.trick = []
                self.tricks_done += 1

    def human_turn(self, phase: str | None) -> bool:
        """Show the table, ask until the answer is legal, play it; False if the person quit."""
        seen = self.seen()
        mask = self.env.observe(f"player_{self.seat}")["action_mask"]
        legal = [int(a) for a in np.flatnonzero(mask)]
        numbered = [c for c in self.hand_order(seen.hand) if c in legal]
        offered = [self.names[a] for a in legal if a >= self.slots]
        self.write(self.screen(seen, numbered, offered))
        prompt = self.prompt(seen, offered)
        while True:
            try:
                text = self.read(prompt)
            except EOFError:
                self.write("")
                return False
            try:
                action = self.parse(text, numbered, offered)
                if action == "quit":
                    return False
                if action == "help":
                    self.write(HELP)
                    continue
                try:  # illegal_action="raise": the engine says why, and nothing changes
                    self.env.step(int(action))
                except ValueError as error:
                    raise InputError(self.reason(error)) from None
                self.record(self.seat, int(action), phase)
                return True
            except InputError as retry:
                self.write(self.paint(f"  ✗ {retry}", "33"))

    def reason(self, error: ValueError) -> str:
        """The engine's refusal in the person's words: ``Not legal: you cannot play 6♣: …``."""
        text = " ".join(str(error).split())
        text = text.removeprefix(f"player_{self.seat}: ")
        text = text.replace(f"seat {self.seat} cannot", "you cannot", 1)
        text = text.replace(": does not hold it", ": it is not in your hand")
        text = text.replace(": has already chosen it to pass", ": you have already chosen it to pass")
        return f"Not legal: {text}"

    def parse(self, text: str, numbered: list[int], offered: list[str]) -> int | str:
        """The action ``text`` names (or ``"quit"`` / ``"help"``); :class:`InputError` if none."""
        t = " ".join(text.split())
        low = t.lower()
        if not t:
            raise InputError(self.expected(numbered, offered))
        if low in QUIT_WORDS:
            return "quit"
        if low in HELP_WORDS:
            return "help"
        if t.isdigit() and numbered:
            k = int(t)
            if 1 <= k <= len(numbered):
                return numbered[k - 1]
            raise InputError(f"there is no card numbered {k}: choose 1–{len(numbered)}")
        key = low.replace(" ", ":")
        if key in self._decision_keys:
            return self._decision_keys[key]
        if t.isdigit():
            raise InputError(f"{t} is not a choice now: {self.expected(numbered, offered)}")
        try:
            card = parse_card(t)
        except ValueError:
            what = "a card or a decision" if self.rules.decisions else "a card"
            raise InputError(f"{t!r} is not {what}: {self.expected(numbered, offered)}") from None
        if card >= self.slots:
            raise InputError(
                f"there is no {card_symbol(card)} in {self.preset}: {self.expected(numbered, offered)}"
            )
        return card

    def expected(self, numbered: list[int], offered: list[str]) -> str:
        """What the person may type now, in a few words."""
        if numbered:
            numbers = "1" if len(numbered) == 1 else f"1–{len(numbered)}"
            return f"type a card like QS, Q♠ or 10H, or its number {numbers} (q quits)"
        return f"type one of {self.choices(offered)} (q quits)"

    # ------------------------------------------------------------------ the screen
    def hand_order(self, hand: list[int]) -> list[int]:
        """The distinct cards of a hand as shown: by suit ♣ ♦ ♥ ♠, high first, jokers last."""
        held = [c for c in range(self.slots) if hand[c]]
        return [c for suit in range(4) for c in reversed(held) if c < 52 and c // 13 == suit] + [
            c for c in held if c >= 52
        ]

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
        return {
            "declare": "declarations",
            "bid": "auction",
            "name_suit": "naming the penalty suit",
            "moon_choice": "the moon choice",
            None: "deal over",
        }.get(seen.phase, str(seen.phase))

    def screen(self, seen: Seen, numbered: list[int], offered: list[str]) -> str:
        """The table as the person sees it, before a question."""
        p = self.paint
        lines = ["", p(RULE, "36")]
        deal = seen.deal_index + 1
        lines.append(p.bold(f" {self.preset} · {self.n} players · deal {deal} · {self.phase_text(seen)}"))
        lines.append(p(RULE, "36"))
        lines += self.scoreboard(seen.points, seen.totals, seen.hand_sizes, "deal", "game")
        lines.append("")
        table = self.table_lines(seen)
        lines += table + ([""] if table else [])
        lines += self.hand_lines(seen, numbered)
        if offered:
            lines += self.decision_lines(seen, offered)
        return "\n".join(lines)

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

    def plays(self, plays: list[tuple[int, int]]) -> str:
        return "  ".join(f"{self.label(s)} {self.paint.card(c)}" for s, c in plays)

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
            lines.append(f"  Chosen to pass: {' '.join(self.paint.card(c) for c in seen.passed)}")
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

    def last_text(self) -> str:
        plays, leader = self.last
        if self.rules.decks == 2 and _cancelled([c for _, c in plays]):
            return f"{self.plays(plays)}   → cancelled, set aside; {self.label(leader)} leads again"
        taker = "you take it" if leader == self.seat else f"{self.label(leader)} takes it"
        return f"{self.plays(plays)}   → {taker}"

    def hand_lines(self, seen: Seen, numbered: list[int]) -> list[str]:
        p = self.paint
        hand = list(seen.hand)
        if seen.phase == "passing":  # the chosen cards stay in the hand until the exchange
            for c in seen.passed:
                hand[c] -= 1
        if not sum(hand):
            return ["  Your hand: -"]
        what = "the numbered cards are legal" if numbered else "no card now: a decision first"
        count = sum(hand)
        lines = [f"  Your hand ({count} card{'s' if count != 1 else ''}; {what}):"]
        number = {c: i + 1 for i, c in enumerate(numbered)}
        order = self.hand_order(hand)
        width = len(str(len(numbered))) + 2
        groups: list[tuple[str, list[int]]] = [
            (SUIT_SYMBOLS[suit], [c for c in order if c < 52 and c // 13 == suit]) for suit in range(4)
        ]
        if any(c >= 52 for c in order):
            groups.append(("🃏", [c for c in order if c >= 52]))
        for symbol, cards in groups:
            red = symbol in "♦♥"
            cells = []
            for c in cards:
                twice = "×2" if hand[c] > 1 else ""
                if c in number:
                    cells.append(f"{p.bold(f'[{number[c]}]'.rjust(width))} {p.card(c)}{twice}")
                else:
                    cells.append(f"{'':{width}} {p.card(c, dim=True)}{twice}")
            lines.append(f"    {p(symbol, '31') if red else symbol}  " + ("  ".join(cells) if cells else "-"))
        return lines

    def decision_lines(self, seen: Seen, offered: list[str]) -> list[str]:
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

    def choices(self, offered: list[str]) -> str:
        """The offered decisions, runs of bids shortened: ``pass, bid:4 … bid:13``."""
        bids = [name for name in offered if name.startswith("bid:")]
        if len(bids) > 3:
            rest = [name for name in offered if not name.startswith("bid:")]
            return ", ".join(rest + [f"{bids[0]} … {bids[-1]}"])
        return ", ".join(offered)

    def prompt(self, seen: Seen, offered: list[str]) -> str:
        if offered:
            return "Your decision > "
        if seen.phase == "passing":
            return f"Pass card {len(seen.passed) + 1} of {self.rules.pass_count} > "
        return "Your card > "

    # ------------------------------------------------------------------ between deals
    def deal_over(self) -> bool:
        """Show the deal's result; True if the game is over."""
        infos = self.env.infos
        info = [infos[f"player_{s}"] for s in range(self.n)]
        seen = self.seen()
        lines = ["", self.paint(RULE, "36"), self.paint.bold(f" Deal {seen.deal_index + 1} is over"),
                 self.paint(RULE, "36")]  # fmt: skip
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

    def ask_continue(self) -> bool:
        while True:
            try:
                text = self.read("Enter for the next deal, q to quit > ").strip().lower()
            except EOFError:
                self.write("")
                return False
            if text in QUIT_WORDS:
                return False
            if text in ("", "next", "y", "yes"):
                return True
            self.write(self.paint("  ✗ press Enter to deal again, or type q to quit", "33"))


def _cancelled(cards: list[int]) -> bool:
    """Cancellation Hearts: whether a complete trick cancels (two pairs of identical cards, or no
    card of the suit led left that is not half of a pair)."""
    pairs = {c for c in cards if cards.count(c) > 1}
    lead_suit = cards[0] // 13
    alive = [c for c in cards if c < 52 and c // 13 == lead_suit and c not in pairs]
    return len(pairs) >= 2 or not alive
