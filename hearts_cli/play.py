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

Smear (the ``smear_*`` presets, :class:`SmearGame`; ``--opponents`` defaults to ``smear``) has
its own screen: the side scores to the target, each seat's cards and bid, the bids in turn and
the dealer, the pitcher, his bid and trumps (their order high to low), what the seat took from
the stock, widow or kitty and put away, the categories won so far and the Game count, the last
trick with who took it and the current one; the hand shows trumps as its first row, highest
first (the jick and the jokers with them). Bids are typed ``pass``, ``bid:3`` or ``3``,
``moon``; trumps ``suit:H``, ``H``, ``♥`` or ``hearts``; discards one by one or several at once
(``1 4 5``). A deal ends with the contract (made or set back), each category with its card and
the side that won it, and the scores.

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
    add_table_flags,
    agent_spec,
    comma_list,
    family_help,
    non_negative_int,
    positive_int,
    preset_defaults,
)
from hearts_env import PRESETS, card_symbol, parse_card
from hearts_env.cards import SUIT_SYMBOLS, SUITS, cards_of
from hearts_env.rules import SMEAR_CATEGORIES
from hearts_env.smear import TrumpTables
from hearts_env.smear_observation import bid_decisions

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
    add_table_flags(p, "players at the table")
    p.add_argument("--seat", type=non_negative_int, default=0, help="your seat, 0 .. players-1 (default: 0)")
    p.add_argument(
        "--opponents", type=comma_list(agent_spec, "agent spec"), metavar="A,B", default=None,
        help="agent specs for the other seats, in seat order and repeated to fill the table "
        f"(default: {family_help('heuristic')}), e.g. ppo,strategy or random",
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
    opponents = args.opponents or (preset_defaults(args.preset).heuristic,)
    game = Game(
        preset=args.preset,
        seat=args.seat,
        opponents=list(opponents),
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


def _game_of(preset: str) -> str:
    """The game family of a preset (``"hearts"`` for an unknown name: its error comes later)."""
    return PRESETS[preset].game if preset in PRESETS else "hearts"


def _by_seat(values: np.ndarray, seat: int, scale: float) -> list[int]:
    """A piece of one value per relative seat (``seat``'s view), scaled, by absolute seat."""
    n = len(values)
    out = [0] * n
    for r, v in enumerate(values):
        out[(seat + r) % n] = int(round(float(v) * scale))
    return out


def _width(text: str) -> int:
    """Columns a text takes in a terminal (🃏 takes two)."""
    return len(text) + text.count("🃏")


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
    """One person at a table of agents, played through the PettingZoo env.

    ``Game(preset, ...)`` is a :class:`SmearGame` for a Smear preset: the one place where the
    game family picks its screens (the Hearts family's are the methods of this class)."""

    help_text = HELP

    def __new__(cls, preset: str, *args: Any, **kwargs: Any) -> Game:
        if cls is Game and _game_of(preset) == "smear":
            cls = SmearGame
        return super().__new__(cls)

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
                    f"--opponents {spec}: {what}; play against other agents "
                    f"(e.g. --opponents {agents.family_defaults(self.rules.game).heuristic}) "
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
            return _by_seat(values, self.seat, scale)

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

    def start_deal(self) -> None:
        """A new deal: nothing of it is on record yet."""
        self.trick: list[tuple[int, int]] = []
        self.last: tuple[list[tuple[int, int]], int] | None = None
        self.decisions: list[tuple[int, str]] = []
        self.tricks_done = 0
        self.out_noted = False

    def play_deal(self) -> bool:
        """Play one deal; False if the person quit."""
        self.start_deal()
        env = self.env
        while True:
            agent = env.agent_selection
            if env.terminations[agent] or env.truncations[agent]:
                return True
            seat = int(agent.rsplit("_", 1)[1])
            seen = self.seen()
            phase = seen.phase
            note = None if self.out_noted else self.out_note(seen)
            if note:
                self.out_noted = True
                self.write(f"\n  {note}")
            if seat != self.seat:
                obs = env.observe(agent)
                self.step(seat, self.agents[seat].act_one(obs, self.rng), phase)
                continue
            if not self.human_turn(phase):
                return False

    def out_note(self, seen: Seen) -> str | None:
        """Why the person sits out the rest of the deal (Domino Hearts: an empty hand), if so."""
        if seen.phase == "playing" and not any(seen.hand):
            return "You are out of cards: the others play on."
        return None

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
        numbered = [c for c in self.hand_order(seen, seen.hand) if c in legal]
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
                    self.write(self.help_text)
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
        number = t.isascii() and t.isdigit()  # not "²" or "①", which int() refuses
        if number and numbered:
            k = int(t)
            if 1 <= k <= len(numbered):
                return numbered[k - 1]
            raise InputError(f"there is no card numbered {k}: choose 1–{len(numbered)}")
        key = low.replace(" ", ":")
        if key in self._decision_keys:
            return self._decision_keys[key]
        if number:
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
    def hand_order(self, seen: Seen, hand: list[int]) -> list[int]:
        """The distinct cards of a hand in the order shown (the legal ones are numbered so)."""
        return [c for _, cards in self.hand_groups(seen, hand) for c in cards]

    def hand_groups(self, seen: Seen, hand: list[int]) -> list[tuple[str, list[int]]]:
        """The rows of a hand as shown, (label, cards): by suit ♣ ♦ ♥ ♠, high first, then a
        row of jokers if there are any."""
        held = [c for c in range(self.slots) if hand[c]]
        groups = [
            (self.suit_label(suit), [c for c in reversed(held) if c < 52 and c // 13 == suit])
            for suit in range(4)
        ]
        if any(c >= 52 for c in held):
            groups.append(("🃏", [c for c in held if c >= 52]))
        return groups

    def suit_label(self, suit: int, text: str | None = None) -> str:
        """``text`` (the suit's symbol by default), red for ♦ and ♥."""
        text = SUIT_SYMBOLS[suit] if text is None else text
        return self.paint(text, "31") if suit in (1, 2) else text

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
        lines += self.score_lines(seen)
        lines.append("")
        table = self.table_lines(seen)
        lines += table + ([""] if table else [])
        lines += self.hand_lines(seen, numbered)
        lines += self.decision_lines(seen, offered)
        return "\n".join(lines)

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
        width = len(str(len(numbered))) + 2
        for label, cards in self.hand_groups(seen, hand):
            cells = []
            for c in cards:
                twice = "×2" if hand[c] > 1 else ""
                if c in number:
                    cells.append(f"{p.bold(f'[{number[c]}]'.rjust(width))} {p.card(c)}{twice}")
                else:
                    cells.append(f"{'':{width}} {p.card(c, dim=True)}{twice}")
            lines.append(f"    {label}  " + ("  ".join(cells) if cells else "-"))
        return lines

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

    def choices(self, offered: list[str]) -> str:
        """The offered decisions, runs of bids shortened: ``pass, bid:4 … bid:13``."""
        bids = [name for name in offered if name.startswith("bid:") and name[4:].isdigit()]
        if len(bids) <= 3:
            return ", ".join(offered)
        run = f"{bids[0]} … {bids[-1]}"
        return ", ".join(run if name == bids[0] else name for name in offered if name not in bids[1:])

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


# ---------------------------------------------------------------------- Smear
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


class SmearGame(Game):
    """The Smear screens: the bids, trumps (the first row of the hand), the discards, the
    side scores, and the categories of each deal. The loop, the input and the Hearts-family
    plumbing are :class:`Game`'s; ``self.trick``/``self.last``/``self.played`` keep the public
    record of the tricks (the observation has only the current trick's cards, not their order)."""

    help_text = SMEAR_HELP

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.tables = TrumpTables(self.rules)
        self.bid_names = bid_decisions(self.rules)
        self.sides: list[tuple[int, ...]] = list(self.rules.teams) or [(s,) for s in range(self.n)]
        self.queued: list[int] = []  # discards typed several at a time, still to play
        self.asking: str | None = None

    def _agent(self, spec: str) -> agents.Agent:
        """An agent spec that can play Smear: one that reads the Hearts observation (e.g.
        ``strategy``) is refused here, in one line, rather than failing at its first move."""
        agent = super()._agent(spec)
        self.env.reset(seed=self.seed)  # a look at the first decision; run() deals it again
        try:
            agent.act_one(self.env.observe(self.env.agent_selection), np.random.default_rng(0))
        except KeyError:  # it looked for a piece of the Hearts observation
            raise ValueError(
                f"--opponents {spec}: {agents.parse_spec(spec)[0]} plays the Hearts family, not Smear; "
                "play against smear, random, lowest or ppo"
            ) from None
        return agent

    # ------------------------------------------------------------------ observation
    def seen(self) -> SmearSeen:  # type: ignore[override]
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
            trick=_cards(piece("current_trick").sum(axis=0)),
            leader=(me + int(np.argmax(piece("trick_leader")))) % n,
            phase=None if phase is None else rules.phases[phase],
            bids=bids,
            pitcher=None if pitcher is None else (me + pitcher) % n,
            trumps=one_hot("trumps"),
            out=seats(piece("out")) if "out" in lay.slices else [],
            won=[int(own) - int(other) for own, other in categories],
            game_points=_by_seat(piece("game_points"), me, 80),
            totals=_by_seat(piece("scores"), me, rules.target_score),
            deal_index=int(round(float(piece("deal_index")[0]) * 10)),
            hand_sizes=_by_seat(piece("hand_sizes"), me, rules.hand_size + rules.stock_size),
            stock_left=int(round(stock_left * rules.stock_size)),
            thrown=_cards(piece("thrown")),
            received=_cards(piece("received")),
        )

    # ------------------------------------------------------------------ the record
    def start_deal(self) -> None:
        super().start_deal()
        self.played: list[int] = []  # every card played to a finished trick this deal
        self.queued = []
        self.eldest = int(self.env.agent_selection.rsplit("_", 1)[1])  # the first to bid

    def record(self, seat: int, action: int, phase: str | None) -> None:
        """Keep the public record: the bids and trumps named, the tricks and who took each (the
        discards are private)."""
        if action >= self.slots:
            self.decisions.append((seat, self.names[action]))
            return
        if phase != "playing":
            return
        self.trick.append((seat, int(action)))
        after = self.seen()
        if not after.trick:  # the trick is complete
            assert after.trumps is not None
            self.last = (self.trick, self.trick_winner(self.trick, after.trumps))
            self.played += [c for _, c in self.trick]
            self.trick = []
            self.tricks_done += 1

    def trick_winner(self, plays: list[tuple[int, int]], trumps: int) -> int:
        """The seat that took a trick: the highest trump, else the highest card of the suit led
        (docs/smear.md; of two equal jokers the later one). Not always the next leader: a winner
        left without cards hands the lead on."""
        tables, rules = self.tables, self.rules
        lead = plays[0][1]
        lead_suit = trumps if self.is_trump(lead, trumps) else lead // 13
        suit_led = int(tables.follow[trumps, lead_suit])
        later_joker_higher = rules.jokers and not rules.distinguishable_jokers and rules.joker_rank == "high"

        def strength(position: int) -> int:
            card = plays[position][1]
            value = int(tables.strength[trumps, card])
            if value and card >= 52 and later_joker_higher:
                value += position
            if not value and suit_led >> card & 1:
                value = 1 + card % 13
            return value

        return plays[max(range(len(plays)), key=lambda i: (strength(i), -i))][0]

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
    def phase_text(self, seen: SmearSeen) -> str:  # type: ignore[override]
        if seen.phase == "playing":
            of = "" if self.rules.smear_deal == "nine_card" else f" of {self.rules.keep}"
            return f"trick {self.tricks_done + 1}{of}"
        return {
            "bid": "bidding",
            "name_suit": "naming trumps",
            "discard": "discarding",
            None: "deal over",
        }.get(seen.phase, str(seen.phase))

    def score_lines(self, seen: SmearSeen) -> list[str]:  # type: ignore[override]
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

    def table_lines(self, seen: SmearSeen) -> list[str]:  # type: ignore[override]
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

    def hand_groups(self, seen: SmearSeen, hand: list[int]) -> list[tuple[str, list[int]]]:  # type: ignore[override]
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

    def decision_lines(self, seen: SmearSeen, offered: list[str]) -> list[str]:  # type: ignore[override]
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

    def prompt(self, seen: SmearSeen, offered: list[str]) -> str:  # type: ignore[override]
        if offered:
            return "Your decision > "
        if seen.phase == "discard":
            return f"Discard ({sum(seen.hand) - self.rules.keep} more) > "
        return "Your card > "

    def out_note(self, seen: SmearSeen) -> str | None:  # type: ignore[override]
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
        p = self.paint
        lines = ["", p(RULE, "36"), p.bold(f" Deal {seen.deal_index + 1} is over"), p(RULE, "36")]
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
