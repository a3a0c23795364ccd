"""The game loop of ``hearts-env play``, for every family: the agents' turns and the person's
(the input, how it is parsed, the refusals), the public record of the deal (the decisions and the
tricks, with who took each as the engine says), and the frame of the screen that each family's
screen (:mod:`hearts_cli.play.hearts_screen`, :mod:`hearts_cli.play.smear_screen`) fills in."""

from __future__ import annotations

import shutil
import sys
import textwrap
import warnings
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any, ClassVar, Generic, Protocol, TypeVar

import numpy as np

import agents
import hearts_env
from evaluation.flags import build_agent
from hearts_env import PRESETS, card_symbol, parse_card
from hearts_env.core.bits import random_legal
from hearts_env.core.cards import SUIT_SYMBOLS, SUITS
from hearts_env.table import SETTINGS

QUIT_WORDS = ("q", "quit", "exit")
HELP_WORDS = ("?", "help")
RULE_WIDTH = 72
"""The width of the rules above and below a headline, in columns (less in a narrower terminal)."""
SUIT_WORDS = {"clubs": "C", "diamonds": "D", "hearts": "H", "spades": "S"}


class View(Protocol):
    """What the loop reads of a family's view of the table (its screen's ``seen()``)."""

    hand: list[int]  # count per card slot
    trick: list[int]  # the cards on the table
    leader: int
    phase: str | None  # None once the deal is over
    deal_index: int


V = TypeVar("V", bound=View)


def family_of_preset(preset: str) -> str:
    """The game family of a preset (``"hearts"`` for an unknown name: its error comes later)."""
    return PRESETS[preset].game if preset in PRESETS else "hearts"


def by_seat(values: np.ndarray, seat: int, scale: float) -> list[int]:
    """A piece of one value per relative seat (``seat``'s view), scaled, by absolute seat."""
    n = len(values)
    out = [0] * n
    for r, v in enumerate(values):
        out[(seat + r) % n] = int(round(float(v) * scale))
    return out


def counted_cards(counts: np.ndarray) -> list[int]:
    """Card indices of a count vector, each as often as it is counted."""
    return [int(c) for c in np.flatnonzero(counts > 0.5) for _ in range(int(round(float(counts[c]))))]


def fit(items: Sequence[str], width: int, sep: str = ", ", indent: str = "  ") -> list[str]:
    """``items`` joined by ``sep`` in lines of at most ``width`` columns, broken only between
    items (never inside one: an item longer than a line has a line of its own), a broken line
    ending with the separator's mark (``,``), the lines after the first indented by ``indent``."""
    mark = sep.rstrip()
    lines: list[str] = []
    line = ""
    for number, item in enumerate(items, 1):
        joined = f"{line}{sep}{item}" if line else item
        room = width - (len(mark) if number < len(items) else 0)  # a mark may follow it
        if line and len(joined) > room:
            lines.append(f"{line}{mark}")
            line = indent + item
        else:
            line = joined
    return [*lines, line] if line else lines


def terminal_width() -> int:
    """The terminal's width in columns (``COLUMNS`` first; 80 when stdout is not a terminal)."""
    return shutil.get_terminal_size().columns


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


class Game(ABC, Generic[V]):
    """One person at a table of agents, played through the PettingZoo env.

    ``Game(preset, ...)`` is the screen of the preset's game family (:attr:`screens`): a
    subclass named with ``family=`` registers itself there. ``self.trick``/``self.last``/
    ``self.played`` keep the public record of the tricks (the observation has only the current
    trick's cards, not their order); who took a trick is the engine's ``last_winner``."""

    screens: ClassVar[dict[str, type[Game[Any]]]] = {}
    """Each game family's screen: family name -> its subclass of :class:`Game`."""
    help_text: ClassVar[str]
    """What ``?`` shows."""
    phase_names: ClassVar[dict[str | None, str]]
    """How the headline names each phase of the deal other than the play (None: the deal is over)."""

    def __init_subclass__(cls, family: str | None = None, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if family is not None:
            Game.screens[family] = cls

    def __new__(cls, preset: str, *args: Any, **kwargs: Any) -> Game[Any]:
        if cls is Game:
            cls = Game.screens[family_of_preset(preset)]
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
        settings = [name for name in options if name in SETTINGS]
        if settings:
            raise ValueError(
                f"--option {settings[0]}: {settings[0]} is a setting of the env, not a rule; play refuses "
                "illegal cards and plays one deal at a time, asking between deals"
            )
        if "num_players" in options:  # --option num_players=N is --players N
            given = options.pop("num_players")
            num_players = given if num_players is None else num_players
        self.rules = hearts_env.make_rules(preset, num_players=num_players, **options)
        n = self.rules.num_players
        if not 0 <= seat < n:
            raise ValueError(f"--seat {seat}: {preset} with {n} players has seats 0..{n - 1}")
        # The default settings: an illegal card raises (and is asked again), one deal an episode.
        self.env = hearts_env.env(preset, num_players=n, **options)
        self.table = self.env.unwrapped.table
        self.preset, self.seat, self.n, self.seed, self.deals = preset, seat, n, seed, deals
        self.names: tuple[str, ...] = self.env.unwrapped.action_names
        self.slots = self.rules.card_slots
        self.layout = hearts_env.layout(self.rules)
        self.paint = Paint(color)
        self.read, self.write = read, write
        self.rng = np.random.default_rng(seed)
        others = [s for s in range(n) if s != seat]
        self.specs = {s: opponents[i % len(opponents)] for i, s in enumerate(others)}
        self.titles = dict(zip(self.specs.values(), agents.labels(list(self.specs.values()))))
        """Each opponent spec's short name (``label=``, or e.g. ``MyAgent`` for a file spec)."""
        self._notes: set[str] = set()
        self.agents = {s: self._agent(spec) for s, spec in self.specs.items()}
        width = max(len(self.label(s, long=True)) for s in range(n))
        self.width = max(width, 8)
        self._decision_keys = self._decision_names()

    def _agent(self, spec: str) -> Any:
        """The agent of ``spec`` for these rules: any class the tournaments seat (an
        :class:`agents.Agent`, or any class with ``act``: docs/your-agent.md); one that cannot be
        built is one ``ValueError`` (:func:`evaluation.flags.build_agent`)."""
        name, params = agents.parse_spec(spec)
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                agent = build_agent(spec, self.rules)
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
        return f"P{seat} {self.titles[self.specs[seat]]}" if long else f"P{seat}"

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

    # ------------------------------------------------------------------ what each screen shows
    @abstractmethod
    def seen(self) -> V:
        """What the person's seat sees now."""

    @abstractmethod
    def out_note(self, seen: V) -> str | None:
        """Why the person sits out the rest of the deal, if so (said once)."""

    @abstractmethod
    def phase_text(self, seen: V) -> str:
        """The headline's last part: the trick, or the phase of the deal."""

    @abstractmethod
    def score_lines(self, seen: V) -> list[str]:
        """The scores, above the table."""

    @abstractmethod
    def table_lines(self, seen: V) -> list[str]:
        """What is on the table: decisions, the last and the current trick …"""

    @abstractmethod
    def decision_lines(self, seen: V, offered: list[str]) -> list[str]:
        """What the person may answer now, below the hand."""

    @abstractmethod
    def card_question(self, seen: V) -> str | None:
        """The question for a card that is not played to a trick (a pass, a discard), if the
        phase asks for one."""

    @abstractmethod
    def deal_over(self) -> bool:
        """Show the deal's result; True if the game is over."""

    # ------------------------------------------------------------------ the loop
    def introduction(self, width: int) -> list[str]:
        """The lines before the first deal, each at most ``width`` columns (the terminal's):
        the preset, who sits where, the seed, how to get help."""
        description = PRESETS[self.preset].description
        title = f"hearts-env play — {self.preset}: {description}"
        title_lines = textwrap.wrap(title, width, subsequent_indent="  ", break_on_hyphens=False)
        where = {(self.seat + 1) % self.n: " (on your left)", (self.seat - 1) % self.n: " (on your right)"}
        seats = [f"seat {s} {self.label(s, long=True)}{where.get(s, '')}" for s in range(self.n)]
        seats = [f"{self.n} players: {seats[0]}", *seats[1:-1], f"{seats[-1]}."]
        seed = [f"Seed {self.seed} (replay with --seed {self.seed}).", "Type ? for help, q to quit."]
        return title_lines + fit(seats, width) + fit(seed, width, sep=" ")

    def run(self) -> int:
        """Play deals until the game ends (or ``deals`` are played, or the person quits)."""
        self.write("\n".join(self.introduction(terminal_width())))
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
        # The last finished trick: its plays, who took it (None: cancelled), who leads next.
        self.last: tuple[list[tuple[int, int]], int | None, int] | None = None
        self.played: list[int] = []  # every card played to a finished trick this deal
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
                self.step(seat, self.agent_action(seat, env.observe(agent), self.rng), phase)
                continue
            if not self.human_turn(phase):
                return False

    def agent_action(self, seat: int, obs: dict[str, Any], rng: np.random.Generator) -> int:
        """The action of the agent at ``seat`` for the observation ``obs`` of one seat: its ``act``
        on a batch of one, as tournaments call it (a class with ``act`` need not subclass
        :class:`agents.Agent`). An action outside the mask is replaced by a random legal one, as in
        tournaments, and said once."""
        batch = {key: np.asarray(value)[None] for key, value in obs.items()}
        mask = batch["action_mask"]
        chosen = np.asarray(self.agents[seat].act(batch, rng)).reshape(-1)
        if chosen.size == 1 and np.issubdtype(chosen.dtype, np.integer):
            action = int(chosen[0])
            if 0 <= action < mask.shape[1] and mask[0, action] > 0:
                return action
        note = (
            f"{self.label(seat, long=True)} answered {chosen.tolist()!r:.40}, not one legal action: "
            "a random legal one is played for it (as in tournaments)"
        )
        if note not in self._notes:
            self._notes.add(note)
            print(f"note: {note}", file=sys.stderr)
        return int(random_legal(mask, rng)[0])

    def step(self, seat: int, action: int, phase: str | None) -> None:
        """Play ``action`` for ``seat`` and keep the public record (tricks, decisions)."""
        self.env.step(int(action))
        self.record(seat, action, phase)

    def record(self, seat: int, action: int, phase: str | None) -> None:
        """Keep the public record of a step just played: the decisions and the tricks, with
        who took each as the engine publishes it (the passes and discards are private, and are
        not kept)."""
        if action >= self.slots:
            self.decisions.append((seat, self.names[action]))
            return
        if phase != "playing":
            return
        self.trick.append((seat, int(action)))
        if int(self.table.trick_number[0]) > self.tricks_done:  # the trick is complete
            cancelled = bool(self.table.last_cancelled[0])
            taker = None if cancelled else int(self.table.last_winner[0])
            self.last = (self.trick, taker, self.seen().leader)
            self.played += [c for _, c in self.trick]
            self.trick = []
            self.tricks_done += 1

    def human_turn(self, phase: str | None) -> bool:
        """Show the table, ask until the answer is legal, play it; False if the person quit."""
        seen = self.seen()
        mask = self.env.observe(f"player_{self.seat}")["action_mask"]
        legal = [int(a) for a in np.flatnonzero(mask)]
        numbered = self.numbering(seen, legal)
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

    # ------------------------------------------------------------------ the frame of the screen
    def prompt(self, seen: V, offered: list[str]) -> str:
        """The question: a decision, a card to pass or discard, or a card to play."""
        if offered:
            return "Your decision > "
        return self.card_question(seen) or "Your card > "

    def phase_name(self, phase: str | None) -> str:
        """The headline's name of a phase (:attr:`phase_names`; the phase itself if unnamed)."""
        return self.phase_names.get(phase, str(phase))

    def headline(self, text: str | Sequence[str]) -> list[str]:
        """A headline between two rules, as wide as the terminal allows: ``text``, or its
        parts joined by `` · `` and broken between them where the terminal is narrow."""
        width = terminal_width()
        rule = self.paint("═" * min(RULE_WIDTH, width), "36")
        parts = [text] if isinstance(text, str) else list(text)
        lines = fit(parts, width - 1, sep=" · ", indent="  ")
        return [rule, *(self.paint.bold(f" {line}") for line in lines), rule]

    def screen(self, seen: V, numbered: list[int], offered: list[str]) -> str:
        """The table as the person sees it, before a question."""
        parts = [self.preset, f"{self.n} players", f"deal {seen.deal_index + 1}", self.phase_text(seen)]
        lines = ["", *self.headline(parts)]
        lines += self.score_lines(seen)
        lines.append("")
        table = self.table_lines(seen)
        lines += table + ([""] if table else [])
        lines += self.hand_lines(seen, numbered)
        lines += self.decision_lines(seen, offered)
        return "\n".join(lines)

    def numbering(self, seen: V, legal: list[int]) -> list[int]:
        """The cards numbered on the screen, number 1 first: the legal ones, in the hand's order."""
        return [c for c in self.hand_order(seen, seen.hand) if c in legal]

    def hand_order(self, seen: V, hand: list[int]) -> list[int]:
        """The distinct cards of a hand in the order shown (the legal ones are numbered so)."""
        return [c for _, cards in self.hand_groups(seen, hand) for c in cards]

    def hand_groups(self, seen: V, hand: list[int]) -> list[tuple[str, list[int]]]:
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

    def shown_hand(self, seen: V) -> list[int]:
        """The hand as the screen shows it (count per card slot)."""
        return list(seen.hand)

    def hand_lines(self, seen: V, numbered: list[int]) -> list[str]:
        p = self.paint
        hand = self.shown_hand(seen)
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

    def suit_label(self, suit: int, text: str | None = None) -> str:
        """``text`` (the suit's symbol by default), red for ♦ and ♥."""
        text = SUIT_SYMBOLS[suit] if text is None else text
        return self.paint(text, "31") if suit in (1, 2) else text

    def plays(self, plays: list[tuple[int, int]]) -> str:
        return "  ".join(f"{self.label(s)} {self.paint.card(c)}" for s, c in plays)

    def last_text(self) -> str:
        """The last finished trick and who took it (or that it was cancelled)."""
        assert self.last is not None
        plays, taker, leader = self.last
        if taker is None:
            return f"{self.plays(plays)}   → cancelled, set aside; {self.label(leader)} leads again"
        took = "you take it" if taker == self.seat else f"{self.label(taker)} takes it"
        return f"{self.plays(plays)}   → {took}"

    def choices(self, offered: list[str]) -> str:
        """The offered decisions, runs of bids shortened: ``pass, bid:4 … bid:13``."""
        bids = [name for name in offered if name.startswith("bid:") and name[4:].isdigit()]
        if len(bids) <= 3:
            return ", ".join(offered)
        run = f"{bids[0]} … {bids[-1]}"
        return ", ".join(run if name == bids[0] else name for name in offered if name not in bids[1:])
