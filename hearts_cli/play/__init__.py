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
command asks between deals whether to go on): ``--option`` takes rule options only, and refuses
the env's settings (``reward``, ``episode``, ``illegal_action``) with one line.
Colours (ANSI) only when stdout is a terminal, and not with ``NO_COLOR`` set or ``--no-color``.
Dependency-free: plain ``print`` and ``input``.

The command is :mod:`~hearts_cli.play.command`; the loop, the input and the record of the deal
:mod:`~hearts_cli.play.game`; the screens :mod:`~hearts_cli.play.hearts_screen` and
:mod:`~hearts_cli.play.smear_screen`. Who took each trick (or that it was cancelled) is what the
engine publishes (``Table.last_winner``, ``Table.last_cancelled``): the screens apply no rule.
"""

from hearts_cli.play.command import add_parser, run
from hearts_cli.play.game import Game, InputError, Paint
from hearts_cli.play.hearts_screen import HeartsGame, Seen
from hearts_cli.play.smear_screen import SmearGame, SmearSeen

__all__ = ["Game", "HeartsGame", "InputError", "Paint", "Seen", "SmearGame", "SmearSeen", "add_parser", "run"]
