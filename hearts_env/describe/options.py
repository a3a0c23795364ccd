"""The rule options in words: the table of every ``Rules`` field in ``docs/rules.md``.

:func:`describe_options` lists each field with its values, its default and its docstring (read
from the source of :class:`~hearts_env.core.rules.Rules`), then the removal tables ``make_rules``
knows.
"""

from __future__ import annotations

import ast
import inspect
import re
from dataclasses import MISSING, fields

from hearts_env.core.cards import parse_cards
from hearts_env.core.prose import code, number, points_phrase, symbol
from hearts_env.core.rules import (
    _BOOLS,
    _INTS,
    BIDDINGS,
    EPISODES,
    FIRST_LEADS,
    FIRST_TRICK_ALL_PENALTY,
    GAMES,
    HEARTS_BREAKS,
    ILLEGAL_ACTIONS,
    JOKER_POINTS,
    JOKER_RANKS,
    LEFTOVERS,
    MOON_BIDS,
    MOON_CARDS,
    MOONS,
    PASS_DIRECTIONS,
    SCORINGS,
    SETTLEMENTS,
    SMEAR_CATEGORIES,
    SMEAR_DEALS,
    TEAM_SCORINGS,
    TRUMP_CHOICES,
    Rules,
)
from hearts_env.presets import PRESETS, REMOVAL_ORDERS, REMOVAL_TABLES


def _field_docs() -> dict[str, str]:
    """The docstring under each ``Rules`` field, read from the source with ``ast``."""
    tree = ast.parse(inspect.getsource(Rules))
    body = tree.body[0].body  # type: ignore[attr-defined]
    docs = {}
    for node, after in zip(body, body[1:]):
        if (
            isinstance(node, ast.AnnAssign)
            and isinstance(node.target, ast.Name)
            and isinstance(after, ast.Expr)
            and isinstance(after.value, ast.Constant)
            and isinstance(after.value.value, str)
        ):
            docs[node.target.id] = after.value.value
    return docs


def _markdown(doc: str) -> str:
    """A reStructuredText docstring as one line of Markdown for a table cell."""
    text = " ".join(doc.split())
    text = re.sub(r":\w+:`~?([^`<]*?)\s*(?:<[^>]*>)?`", lambda m: f"`{m.group(1).split('.')[-1]}`", text)
    text = text.replace("``", "`")
    text = re.sub(r"\s*\(RULES\.md §[\d, §–-]+\)", "", text)
    text = re.sub(r"RULES\.md §[\d, §–-]+;\s*", "", text)
    return text.replace("|", "\\|")


_CHOICES = {
    "leftover": LEFTOVERS,
    "first_lead": FIRST_LEADS,
    "hearts_break": HEARTS_BREAKS,
    "moon": MOONS,
    "first_trick_all_penalty": FIRST_TRICK_ALL_PENALTY,
    "moon_cards": MOON_CARDS,
    "scoring": SCORINGS,
    "settlement": SETTLEMENTS,
    "episode": EPISODES,
    "illegal_action": ILLEGAL_ACTIONS,
    "bidding": BIDDINGS,
    "team_scoring": TEAM_SCORINGS,
    "game": GAMES,
    "smear_deal": SMEAR_DEALS,
    "moon_bid": MOON_BIDS,
    "trumps": TRUMP_CHOICES,
    "joker_rank": JOKER_RANKS,
    "joker_points": JOKER_POINTS,
}
_SPECIAL_VALUES = {
    "removed": 'cards, e.g. `["2C", "2D"]`',
    "card_points": 'mapping card → points, merged over the preset\'s, e.g. `{"JD": -10}`',
    "pass_directions": "a direction or a list of them: " + ", ".join(code(d) for d in PASS_DIRECTIONS),
    "teams": "seat tuples, e.g. `[[0, 2], [1, 3]]`",
    "discard_first": 'a card, e.g. `"JS"`, or `None`',
    "categories": "Smear categories: " + ", ".join(code(c) for c in SMEAR_CATEGORIES),
}


def _values(name: str) -> str:
    if name in _CHOICES:
        return ", ".join(code(v) for v in _CHOICES[name])
    if name in _SPECIAL_VALUES:
        return _SPECIAL_VALUES[name]
    if name in _BOOLS:
        return "`True`, `False`"
    if name in _INTS:
        low, high, optional = _INTS[name]
        return f"int {number(low)}…{high}" + (" or `None`" if optional else "")
    raise ValueError(f"Rules field {name!r} has no values described in hearts_env/describe/options.py")


def _default(name: str) -> str:
    f = next(f for f in fields(Rules) if f.name == name)
    value = f.default_factory() if f.default is MISSING else f.default  # type: ignore[misc]
    if name == "card_points":
        return points_phrase(Rules(), value)
    if name == "pass_directions":
        return ", ".join(value)
    if isinstance(value, tuple) and not value:
        return "none"
    return code(value)


def describe_options() -> str:
    """Markdown: every ``Rules`` field (the rule options) with its values, its default and its
    docstring, then the removal tables ``make_rules`` knows."""
    docs = _field_docs()
    lines = [
        "Every field of `hearts_env.core.rules.Rules`; the defaults are a bare `Rules()`'s (each preset sets "
        "its own, as its section says). The meanings are the fields' docstrings.",
        "",
        "| option | values | default | meaning |",
        "|---|---|---|---|",
    ]
    for f in fields(Rules):
        if f.name == "preset":
            continue
        lines.append(
            f"| {code(f.name)} | {_values(f.name)} | {_default(f.name)} | {_markdown(docs[f.name])} |"
        )
    versions = sorted({v for spec in PRESETS.values() for v in spec.versions})
    readings = sum(len(spec.readings) for spec in PRESETS.values())
    removals = ", ".join(code(t) for t in [*REMOVAL_TABLES, *REMOVAL_ORDERS])
    counts = sorted({n for removed in REMOVAL_TABLES.values() for n in removed})
    lines += [
        "",
        "`make_rules` (and so `hearts_env.env`, `vector_env`, `--option`) also takes:",
        "",
        f"- `reading`: one of the preset's readings ({readings} in all, listed under each preset);",
        f"- `version`: one of the preset's versions ({', '.join(code(v) for v in versions)});",
        f"- `removal`: a removal table, {removals}, instead of the preset's (below); `removed` lists "
        "the cards instead.",
        "",
        "| removal table | " + " | ".join(f"{n} players" for n in counts) + " |",
        "|---|" + "---|" * len(counts),
    ]
    for table, removed in REMOVAL_TABLES.items():
        cells = [
            " ".join(symbol(c) for c in parse_cards(removed[n])) if n in removed else "—" for n in counts
        ]
        lines.append(f"| {code(table)} | " + " | ".join(cells) + " |")
    lines.append("")
    for table, order in REMOVAL_ORDERS.items():
        lines.append(
            f"The {code(table)} removal takes out as many cards as the deck (jokers included) needs for "
            f"equal hands, in the order {' '.join(symbol(c) for c in parse_cards(order))}."
        )
    return "\n".join(lines)
