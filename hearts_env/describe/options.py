"""The rule options in words: the tables of ``docs/rules.md`` of the common rules and of each
family's options.

:func:`describe_options` lists each field of :class:`~hearts_env.core.rules.Rules` (the common
rules), then each family's options record (``Rules.options``), with its values, its default and
its docstring (read from the source), then the removal tables ``make_rules`` knows.
"""

from __future__ import annotations

import ast
import inspect
import re
from dataclasses import fields, is_dataclass
from typing import Any

from hearts_env.core.cards import parse_cards
from hearts_env.core.prose import code, number, points_phrase, symbol
from hearts_env.core.rules import _INTS, GAMES, Options, Rules
from hearts_env.games import BUILT_IN, FAMILIES
from hearts_env.presets import PRESETS, REMOVAL_ORDERS, REMOVAL_TABLES


def _field_docs(record: type) -> dict[str, str]:
    """The docstring under each field of the dataclass ``record`` and of the dataclasses it
    derives from, read from their source with ``ast`` (a class's own docstring wins)."""
    docs: dict[str, str] = {}
    for cls in reversed(record.__mro__):
        if not is_dataclass(cls) or cls is object:
            continue
        body = ast.parse(inspect.getsource(cls)).body[0].body  # type: ignore[attr-defined]
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


_COMMON_VALUES = {
    "num_players": "int 3…11 (each preset its range)",
    "game": "set by the preset: " + ", ".join(code(g) for g in GAMES),
    "removed": 'cards, e.g. `["2C", "2D"]`',
    "teams": "seat tuples, e.g. `[[0, 2], [1, 3]]`",
}


def _values(name: str, record: type[Options] | None) -> str:
    """The values option ``name`` takes (``record``: its family's options; None: a common rule)."""
    if record is None:
        if name in _COMMON_VALUES:
            return _COMMON_VALUES[name]
        choices, texts, bools, ints = {}, {}, (), _INTS
    else:
        choices, texts, bools, ints = record.choices, record.value_texts, record.bools, record.ints
    if name in choices:
        return ", ".join(code(v) for v in choices[name])
    if name in texts:
        return texts[name]
    if name in bools:
        return "`True`, `False`"
    if name in ints:
        low, high, optional = ints[name]
        return f"int {number(low)}…{high}" + (" or `None`" if optional else "")
    raise ValueError(f"rules option {name!r} has no values described in hearts_env/describe/options.py")


def _default(value: Any, name: str, game: str) -> str:
    if name == "card_points":
        return points_phrase(Rules(game=game), value)
    if name == "pass_directions":
        return ", ".join(value)
    if name == "game":
        return "the preset's"
    if isinstance(value, tuple) and not value:
        return "none"
    return code(value)


def _table(rows: list[tuple[str, str, str, str]]) -> list[str]:
    return [
        "| option | values | default | meaning |",
        "|---|---|---|---|",
        *(f"| {code(name)} | {values} | {default} | {meaning} |" for name, values, default, meaning in rows),
    ]


def describe_options() -> str:
    """Markdown: the common rules (every field of ``Rules`` but ``options``), then each family's
    options record, each with its values, its default and its docstring, then the removal
    tables ``make_rules`` knows."""
    docs = _field_docs(Rules)
    common = [
        (f.name, _values(f.name, None), _default(f.default, f.name, ""), _markdown(docs[f.name]))
        for f in fields(Rules)
        if f.name not in ("preset", "options")
    ]
    lines = [
        "The common rules are the fields of `hearts_env.core.rules.Rules`; each family's own options are "
        "the fields of its options record, `Rules.options` (read as `rules.<name>` too). `make_rules` "
        "takes both by name and refuses another family's. The defaults are those of a bare record (each "
        "preset sets its own, as its section says). The meanings are the fields' docstrings.",
        "",
        *_table(common),
    ]
    for game in BUILT_IN:
        record = FAMILIES[game].options
        docs = _field_docs(record)
        rows = [
            (name, _values(name, record), _default(record.default(name), name, game), _markdown(docs[name]))
            for name in record.names()
        ]
        lines += [
            "",
            f"The {FAMILIES[game].title} family's options (`{record.__module__}.{record.__name__}`):",
            "",
            *_table(rows),
        ]
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
