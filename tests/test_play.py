"""``hearts-env play``: a person at the table, driven through a pseudo-terminal (pexpect).

The moves are read off the screen (the numbered legal cards, the offered decisions), so the
tests hold whatever the agents do. A last test plays one deal of every preset (Hearts and Smear)
in-process, with the same screen reading, through :class:`hearts_cli.play.Game`'s
``read``/``write`` hooks.
"""

from __future__ import annotations

import importlib.util
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

import hearts_env
from hearts_cli.play import Game

pexpect = pytest.importorskip("pexpect")

ROOT = Path(__file__).resolve().parent.parent
ANSI = re.compile(r"\x1b\[[0-9;]*m")
PROMPT = re.compile(
    r"(Pass card \d+ of \d+|Discard \(\d+ more\)|Your card|Your decision|Enter for the next deal, q to quit)"
    r" > "
)
LEGAL = re.compile(r"\[(\d+)\]\s+(\S+)")
HAS_TORCH = importlib.util.find_spec("torch") is not None
SYMBOL_TO_LETTER = dict(zip("♣♦♥♠", "CDHS"))
CARD = re.compile(r"(?:10|[2-9JQKA])[♣♦♥♠]|🃏[12]")


def spawn(*args: str) -> pexpect.spawn:
    env = dict(os.environ, PYTHONIOENCODING="utf-8", LANG="C.UTF-8", LC_ALL="C.UTF-8")
    env.pop("NO_COLOR", None)
    return pexpect.spawn(
        sys.executable, ["-m", "hearts_cli", "play", *args], cwd=str(ROOT), env=env,
        encoding="utf-8", timeout=30, dimensions=(60, 200),
    )  # fmt: skip


def screen_of(child: pexpect.spawn) -> str:
    """The text since the last answer, colours removed."""
    return ANSI.sub("", child.before)


def hand_block(screen: str) -> str:
    return screen.rsplit("Your hand", 1)[-1] if "Your hand" in screen else ""


def legal_cards(screen: str) -> list[tuple[int, str]]:
    """The numbered (legal) cards of the hand shown: (number, card as shown)."""
    return [(int(k), card.removesuffix("×2")) for k, card in LEGAL.findall(hand_block(screen))]


def hand_cards(screen: str) -> list[str]:
    """Every card of the hand shown (numbered or not)."""
    cards = []
    for line in hand_block(screen).splitlines()[1:]:
        line = LEGAL.sub(r"\2", line).strip()
        if line[:1] in SYMBOL_TO_LETTER:
            cards += [c.removesuffix("×2") for c in line[1:].split() if c != "-"]
    return cards


def ascii_card(shown: str) -> str:
    """``10♥`` -> ``10H``, ``🃏1`` -> ``JK1``, as a person would type it."""
    if shown.startswith("🃏"):
        return "JK" + shown[1:]
    return shown[:-1] + SYMBOL_TO_LETTER[shown[-1]]


def smear_hand(screen: str) -> tuple[list[str], list[tuple[int, str]]]:
    """Smear: every card of the hand shown, and the numbered cards outside the trumps row."""
    rows = hand_block(screen).splitlines()[1:]
    rows = rows[: next((i for i, row in enumerate(rows) if not row.startswith("    ")), len(rows))]
    plain = [(int(k), card) for row in rows if "trumps" not in row for k, card in LEGAL.findall(row)]
    return CARD.findall("\n".join(rows)), plain


def expect_prompt(child: pexpect.spawn) -> tuple[str, str]:
    child.expect(PROMPT)
    return child.match.group(1), screen_of(child)


# ---------------------------------------------------------------------- a full deal of Hearts
def test_a_full_deal_of_hearts_through_a_terminal() -> None:
    opponents = "ppo,strategy" if HAS_TORCH else "strategy,random"
    child = spawn("--preset", "hearts", "--seat", "0", "--opponents", opponents, "--seed", "7")
    passes = plays = 0
    tried_invalid = False
    while True:
        kind, screen = expect_prompt(child)
        if kind.startswith("Enter"):
            break
        legal = legal_cards(screen)
        assert legal, screen
        if kind.startswith("Pass"):
            assert "passing 3 cards left, to P1" in screen
            assert "\x1b[" in child.before  # a terminal gets colours
            if passes == 0:
                child.sendline("?")
                child.expect("How to answer:")
                child.expect(PROMPT)
            number, card = legal[passes % len(legal)]
            # by number, as QS, as Q♠
            child.sendline([str(number), ascii_card(card), card][passes % 3])
            passes += 1
            continue
        assert kind == "Your card"
        assert ("P1 ppo" if HAS_TORCH else "P1 strategy") in screen
        assert re.search(r"trick \d+ of 13, hearts (not )?broken", screen)
        if not tried_invalid:
            tried_invalid = True
            assert "You passed" in screen and "received" in screen
            child.sendline("ZZ")
            child.expect(r"'ZZ' is not a card: type a card like QS")
            child.expect("Your card > ")
            numbered = {card for _, card in legal}
            illegal = [c for c in hand_cards(screen) if c not in numbered]
            ranks = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
            absent = [r + s for s in "♣♦♥♠" for r in ranks if r + s not in hand_cards(screen)]
            wrong = (illegal or absent)[0]  # a card held but not legal now, else one not held
            child.sendline(ascii_card(wrong))
            child.expect(r"Not legal: you cannot play " + re.escape(wrong) + r": [^\r\n]+\(legal: ")
            child.expect("Your card > ")
        number, card = legal[plays % len(legal)]
        child.sendline(str(number) if plays % 2 else ascii_card(card))
        plays += 1
    assert passes == 3 and plays == 13
    assert "Deal 1 is over" in screen and "Last trick:" in screen
    totals = re.findall(r"^\s+(you|P\d \w+)\s+(-?\d+)\s+(-?\d+)\s*$", screen, re.M)
    assert len(totals) == 4, screen
    assert sum(int(deal) for _, deal, _ in totals) in (26, 78)  # 26 points, or a moon
    child.sendline("q")
    child.expect("Bye.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


# ---------------------------------------------------------------------- a full deal of Smear
def test_a_full_deal_of_smear_through_a_terminal() -> None:
    opponents = "ppo,smear" if HAS_TORCH else "smear,random"
    child = spawn("--preset", "smear_partnership", "--seat", "0", "--opponents", opponents, "--seed", "11")
    bids = discards = plays = 0
    pitched = False
    while True:
        kind, screen = expect_prompt(child)
        if kind.startswith("Enter"):
            break
        if kind == "Your decision":
            offered = re.search(r"Your decision: (.+)", screen).group(1).strip()
            if offered.startswith("suit:"):  # we won the bidding: name hearts by their symbol
                assert offered == "suit:C, suit:D, suit:H, suit:S" and "you pitch with bid " in screen
                child.sendline("♥")
                pitched = True
                continue
            assert "smear_partnership · 4 players · deal 1 · bidding" in screen
            assert "Dealer: " in screen and bids == 0
            assert offered.startswith("pass") or offered == "bid:1", offered  # bids offered by name
            if offered.startswith("pass, bid:"):
                assert "bid:N (or just N)" in screen and "the highest bid pitches" in screen
            # one invalid bid first, refused with the engine's reason, then asked again
            if "Highest bid: " in screen:  # a bid below the highest so far
                child.sendline("1")
                child.expect(r"Not legal: you cannot choose bid:1: a bid must beat the highest bid so far")
            elif offered == "bid:1":  # the others all passed: the dealer must bid
                child.sendline("pass")
                child.expect(
                    r"Not legal: you cannot choose pass: everybody else passed: the dealer must bid 1"
                )
            else:
                child.sendline("bid:11")
                child.expect(r"'bid:11' is not a card or a decision")
            child.expect("Your decision > ")
            child.sendline("10" if "bid:10" in offered else offered.split(", ")[0])  # bid 10: we pitch
            bids += 1
            continue
        cards, plain = smear_hand(screen)
        legal = legal_cards(screen)
        assert legal, screen
        assert "Trumps: ♥   high to low: A♥ K♥ Q♥ J♥ J♦ 🃏1 🃏2 10♥ … 2♥" in screen or not pitched
        assert re.search(r"Trumps: [♣♦♥♠]   high to low: ", screen) and re.search(
            r"\n    [♣♦♥♠] trumps ", screen
        )
        if kind.startswith("Discard"):
            more = int(re.search(r"\((\d+) more\)", kind).group(1))
            assert f"Discard down to 6: choose {more} more" in screen
            several = [str(number) for number, _ in plain[: min(3, more)]]
            child.sendline(" ".join(several) if several else str(legal[0][0]))  # up to 3 at once
            discards += 1
            continue
        assert kind == "Your card"
        assert re.search(r"trick \d of 6", screen) and "Pitcher: " in screen
        if plays == 1:  # a card not in the hand: refused with the engine's reason
            assert "Last trick: " in screen and "take" in screen
            absent = next(c for c in ("A♠", "2♣", "K♦", "Q♥", "3♠") if c not in cards)
            child.sendline(ascii_card(absent))
            child.expect(
                r"Not legal: you cannot play " + re.escape(absent) + r": it is not in your hand \(legal: "
            )
            child.expect("Your card > ")
        number, card = legal[plays % len(legal)]
        child.sendline(str(number) if plays % 2 else ascii_card(card))
        plays += 1
    assert bids == 1 and discards >= 1 and plays == 6
    summary = screen.split("Deal 1 is over", 1)[1]
    assert "pitched bid" in summary and ("the bid is made" in summary or "set back" in summary), summary
    for category in ("High", "Low", "Jack", "Jick", "Joker 1", "Joker 2", "Game", "Trey (3)"):
        assert re.search(
            rf"^    {re.escape(category)} .*→ (you & P2|P1 & P3|not in play|nobody)", summary, re.M
        )
    assert re.search(r"This deal: you & P2 [+-]\d+ · P1 & P3 [+-]\d+", summary)
    assert "Score (game to 21): you & P2 " in summary
    child.sendline("q")
    child.expect("Bye.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


# ---------------------------------------------------------------------- decisions by name
def test_auction_hearts_answers_a_bid_by_name() -> None:
    child = spawn("--preset", "auction_hearts", "--opponents", "strategy,random", "--seed", "3")
    decided = False
    cards = 0
    while cards < 3:
        kind, screen = expect_prompt(child)
        if kind == "Your decision":
            offered = re.search(r"Your decision: (.+)", screen).group(1).strip()
            assert "auction" in screen or "penalty suit" in screen
            if "suit:" in offered:
                child.sendline("suit:S")  # we won the auction: spades become the penalty suit
                child.expect("Your card > ")
                assert "Penalty suit: ♠" in ANSI.sub("", child.before)
                child.sendline(str(legal_cards(ANSI.sub("", child.before))[0][0]))
                cards += 1
                continue
            assert offered.startswith("pass"), offered
            if "bid:13" not in offered:
                child.sendline("pass")
                decided = True
                continue
            child.sendline("bid:0")  # not a decision of this game
            child.expect(r"'bid:0' is not a card or a decision")
            child.expect("Your decision > ")
            if not re.search(r"bid:1\b", offered):
                child.sendline("bid:1")  # below the highest bid so far: the engine says why
                child.expect(r"Not legal: you cannot choose bid:1: the bid must beat the highest bid")
                child.expect("Your decision > ")
            child.sendline("bid:13")
            decided = True
            continue
        assert kind == "Your card", kind
        made = screen.split("Decisions: ")[1].splitlines()[0]
        assert decided and "you " in made, screen
        number, _ = legal_cards(screen)[0]
        child.sendline(str(number))
        cards += 1
    child.sendline("q")
    child.expect("Bye.")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


# ---------------------------------------------------------------------- refused before play
@pytest.mark.parametrize(
    ("args", "says"),
    [
        (
            ["--preset", "chasse_coeur", "--opponents", "ppo:network=specialist"],
            "no PPO checkpoint ships for chasse_coeur",
        ),
        (["--preset", "black_maria", "--seat", "3"], "--seat 3: black_maria with 3 players has seats 0..2"),
        (["--preset", "nope"], "nope"),
        (
            ["--preset", "smear_partnership", "--opponents", "strategy"],
            "'strategy' cannot play smear_partnership",
        ),
    ],
)
def test_bad_setups_are_one_line(args: list[str], says: str) -> None:
    if "ppo" in args and not HAS_TORCH:
        says = "torch"
    result = subprocess.run(
        [sys.executable, "-m", "hearts_cli", "play", *args], cwd=ROOT, capture_output=True, text=True,
        timeout=60, input="",
    )  # fmt: skip
    assert result.returncode == 2, result
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("hearts-env: error: ") and says in lines[0], lines


# ---------------------------------------------------------------------- every preset
def opponents_for(preset: str) -> list[str]:
    """Agents for the other seats: the shipped PPO where there is one to test, else baselines."""
    if hearts_env.PRESETS[preset].game == "smear":
        return ["ppo", "smear"] if preset == "smear_partnership" and HAS_TORCH else ["smear", "random"]
    return ["ppo", "strategy"] if preset == "black_maria" and HAS_TORCH else ["strategy", "random"]


@pytest.mark.parametrize("preset", hearts_env.preset_names())
def test_every_preset_plays_a_deal_from_the_screen(preset: str) -> None:
    out: list[str] = []
    rng = random.Random(preset)
    prompts: list[str] = []

    def read(prompt: str) -> str:
        screen = ANSI.sub("", "\n".join(out[-2:]))
        prompts.append(prompt)
        out.append(prompt)
        if prompt.startswith("Your decision"):
            choices = re.search(r"Your decision: (.+)", screen).group(1).replace(" … ", ", ").split(", ")
            return rng.choice(choices)
        legal = legal_cards(screen)
        assert legal, screen
        if prompt.startswith("Discard") and rng.random() < 0.5:  # several discards in one answer
            more = int(re.search(r"\((\d+) more\)", prompt).group(1))
            plain = smear_hand(screen)[1]  # not trumps: each stays legal after the others
            if plain:
                chosen = rng.sample(plain, min(more, len(plain), rng.randint(1, 4)))
                return " ".join(rng.choice([str(number), ascii_card(card)]) for number, card in chosen)
        number, card = rng.choice(legal)
        return rng.choice([str(number), card, ascii_card(card)])

    game = Game(
        preset, 0, opponents_for(preset), None, {}, seed=1, deals=1, color=False, read=read, write=out.append
    )
    assert game.run() == 0
    text = "\n".join(out)
    assert "✗" not in text  # every answer read off the screen was accepted
    assert "Deal 1 is over" in text and "Thanks for playing." in text
    rules = hearts_env.make_rules(preset)
    if rules.game == "smear":
        assert any(p.startswith("Your decision") for p in prompts)  # every player bids once
        assert "Trumps: " in text and "Pitcher: " in text
        summary = text.rsplit("Deal 1 is over", 1)[1]
        assert "pitched bid" in summary and ("the bid is made" in summary or "set back" in summary)
        assert len(re.findall(r"^    \S[^\n]*→ ", summary, re.M)) == len(rules.categories), summary
        assert f"Score (game to {rules.target_score}): " in summary
        return
    if rules.stock_size:
        assert "Stock: " in text and "cards" in text.split("\n", 6)[-1]
    if rules.decisions and rules.bidding == "auction":
        assert any(p.startswith("Your decision") for p in prompts)


# ---------------------------------------------------------------------- numbers that are not numbers
@pytest.mark.parametrize(
    ("preset", "opponent", "then"),
    [("hearts", "strategy", ["1", "q"]), ("smear_five_point", "smear", ["q"])],  # a card; a bid
)
def test_a_non_ascii_digit_is_asked_again(preset: str, opponent: str, then: list[str]) -> None:
    """``²``, ``①``, ``٣`` and ``１`` are digits to ``str.isdigit`` (``int()`` refuses the first
    two, which once ended the game): each is refused and the question asked again."""
    odd = ["²", "①", "٣", "１", "1²"]
    out: list[str] = []
    answers = [*odd, *then]

    def read(prompt: str) -> str:
        out.append(prompt)
        return answers.pop(0)

    game = Game(preset, 0, [opponent], None, {}, seed=1, deals=1, color=False, read=read, write=out.append)
    assert game.run() == 0 and answers == []  # every answer read, the last one quits
    refusals = [line for line in out if "✗" in line]
    assert len(refusals) == len(odd) and all(f"{text!r} is not" in line for text, line in zip(odd, refusals))
