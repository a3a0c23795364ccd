"""The phases of a deal, one vocabulary for every game family: the ``phase`` codes of the batch
state and the names the observations and ``rules.phases`` use.

=============  ====  =========================================================================
phase          code  who uses it
=============  ====  =========================================================================
passing        0     the Hearts family's pass (card actions)
playing        1     every family: cards to the trick
done           2     the deal is over (no decision is asked)
declare        3     Black Maria's Général, Partnership C's slam (decisions)
bid            4     the auction (Hearts family) and Smear's bidding (decisions)
name_suit      5     the auction's penalty suit, Smear's trumps (decisions)
moon_choice    6     the moon shooter's choice (decisions)
discard        7     Smear's discards after the widow or the stock (card actions)
=============  ====  =========================================================================

A family uses the phases its rules list (``rules.phases``); a code means the same thing in
every family, so a module reading a state never asks which engine wrote it.
"""

from __future__ import annotations

PASSING, PLAYING, DONE, DECLARE, BID, NAME_SUIT, MOON_CHOICE, DISCARD = range(8)

PHASE_NAMES = {
    PASSING: "passing",
    PLAYING: "playing",
    DECLARE: "declare",
    BID: "bid",
    NAME_SUIT: "name_suit",
    MOON_CHOICE: "moon_choice",
    DISCARD: "discard",
}
"""The observation's name of each phase code (``done`` has none: no decision is asked)."""

PHASE_CODES = DISCARD + 1
"""How many phase codes there are (the size of a table indexed by the code)."""
