"""The phrases every part of the rules description shares: cards, numbers, lists, card values."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from hearts_env.core.cards import HEARTS, NUM_RANKS, NUM_STANDARD_CARDS, card_symbol
from hearts_env.core.rules import Rules


def symbol(card: int) -> str:
    """A card as printed: ``Q♠``."""
    return card_symbol(card)


def symbols(cards: Sequence[int]) -> str:
    """Cards as printed, comma-separated."""
    return ", ".join(symbol(c) for c in cards)


def join(items: Sequence[str], word: str = "and") -> str:
    """``a, b and c`` (``word`` before the last item)."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {word} " + items[-1]


def number(value: int) -> str:
    """An integer with a typographic minus sign."""
    return f"−{-value}" if value < 0 else str(value)


def code(text: object) -> str:
    """``text`` as inline Markdown code."""
    return f"`{text}`"


def plural(count: int, one: str, many: str | None = None) -> str:
    """``1 card``, ``3 cards`` (``many`` where the plural is not ``one + "s"``)."""
    return f"{count} {one if count == 1 else (many or one + 's')}"


def seat_list(seats: Sequence[int]) -> str:
    """Seat numbers as a list in words."""
    return join([str(s) for s in seats])


def in_play(rules: Rules) -> list[int]:
    """Each card identity in play once (two decks hold every identity twice)."""
    return sorted(set(rules.deck.cards))


def _hearts_in_play(rules: Rules) -> list[int]:
    return [c for c in in_play(rules) if c < NUM_STANDARD_CARDS and c // NUM_RANKS == HEARTS]


def set_phrase(rules: Rules, cards: Sequence[int]) -> str:
    """A set of cards in words: "the hearts and Q♠" where it holds every heart in play."""
    hearts = _hearts_in_play(rules)
    cards = sorted(set(cards))
    if len(hearts) >= 2 and set(hearts) <= set(cards):
        others = [c for c in cards if c not in hearts]
        return join(["the hearts", *(symbol(c) for c in others)])
    return join([symbol(c) for c in cards])


def _face(card: int) -> int:
    return card % NUM_RANKS + 2


def points_phrase(rules: Rules, points: Sequence[int]) -> str:
    """Card values in words: the cards with their own values, then what every (other) heart is
    worth, grouped; cards worth 0 are left out."""
    cards_in_play = in_play(rules)
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

    special = [c for c in cards_in_play if not fits(c) and (points[c] or (baseline and c in hearts))]
    groups: dict[int, list[int]] = {}
    for c in special:
        groups.setdefault(points[c], []).append(c)
    order = sorted(groups, key=lambda v: (0 if v > 0 else 1 if v == 0 else 2, -abs(v)))
    parts = [
        f"{symbols(groups[v])} {number(v)}{' each' if len(groups[v]) > 1 else ''}" for v in order if v > 0
    ]
    if baseline is not None:
        other = "other " if any(c in hearts for c in special) else ""
        if baseline[0] == "flat":
            parts.append(f"every {other}heart {number(baseline[1])}")
        else:
            honours = [f"{symbol(c)[:-1]} {_face(c)}" for c in hearts if c % NUM_RANKS >= 9 and fits(c)]
            tail = f" ({', '.join(honours)})" if honours else ""
            parts.append(f"every {other}heart its face value{tail}")
    parts += [
        f"{symbols(groups[v])} {number(v)}{' each' if len(groups[v]) > 1 else ''}" for v in order if v <= 0
    ]
    return "; ".join(parts)
