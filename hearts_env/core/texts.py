"""The hand text every family's readable picture of a game shares: a card set by suit, high cards
first. Each family draws its own game (``texts`` in its folder); :func:`hearts_env.render.render_text`
picks the family's."""

from __future__ import annotations

from hearts_env.core.cards import SUIT_SYMBOLS, card_symbol, cards_of


def hand_text(mask: int, twice: int = 0) -> str:
    """Cards of a mask grouped by suit, high cards first: ``♣ A 10 2  ♦ -  ♥ Q  ♠ K 3``."""
    cards = sorted(cards_of(mask) + cards_of(twice))  # two decks: ``twice`` holds the second copies
    groups = []
    for suit, symbol in enumerate(SUIT_SYMBOLS):
        ranks = [card_symbol(c)[:-1] for c in reversed(cards) if c // 13 == suit]
        groups.append(f"{symbol} {' '.join(ranks) if ranks else '-'}")
    jokers = [card_symbol(c) for c in cards if c >= 52]
    return "  ".join(groups + jokers)
