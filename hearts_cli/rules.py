"""``hearts-env rules [PRESET]``: a preset's rules in words, written from the preset data.

Without options it prints :func:`hearts_env.describe.describe_preset` (the text of the preset's
section of ``docs/rules.md``); with ``--players``, ``--reading`` or ``--option`` it prints
:func:`hearts_env.describe.describe` of the rules so configured; without a preset, the list of
presets. Bad input (an unknown preset, reading or option) is one line and exit status 2.

The text is Markdown; the command prints it as :func:`terminal_text` renders it for a terminal
(link syntax, emphasis, backticks and HTML comments gone, tables aligned; on a terminal headings
and bold words in bold, unless ``NO_COLOR`` is set, and paragraphs wrapped to its width), or as
Markdown with ``--markdown``.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import sys
import textwrap

from evaluation.flags import add_debug, add_option_flag, positive_int
from hearts_env.describe import describe, describe_preset, preset_index
from hearts_env.presets import get_preset, make_rules


def add_rules(commands: argparse._SubParsersAction) -> None:
    """Register the ``rules`` command."""
    p = commands.add_parser(
        "rules",
        help="print a preset's rules, from the preset data (docs/rules.md)",
        description="Prints one preset's rules, written from the preset data; with "
        "--players, --reading or --option, the rules so configured.",
    )
    p.add_argument("preset", nargs="?", default=None, help="preset name (without it: the list of presets)")
    p.add_argument("--players", type=positive_int, default=None, help="players (default: the preset's)")
    p.add_argument("--reading", default=None, help="one of the preset's readings")
    add_option_flag(p)
    p.add_argument(
        "--markdown", action="store_true", help="print the Markdown source (the text of docs/rules.md)"
    )
    add_debug(p, top=False)
    p.set_defaults(run=run)


def title(preset: str, num_players: int, reading: str | None, options: dict) -> str:
    """The heading of a configured description: preset, players, reading and options."""
    parts = [f"{num_players} players"]
    if reading is not None:
        parts.append(f'reading="{reading}"')
    parts += [
        f"{key}={value if isinstance(value, str) else json.dumps(value)}" for key, value in options.items()
    ]
    return f"## `{preset}`: " + ", ".join(parts)


def markdown(args: argparse.Namespace) -> str:
    """The Markdown text the arguments ask for; errors (unknown preset, reading, option) are
    ``ValueError``."""
    if args.preset is None:
        return preset_index()
    get_preset(args.preset)
    options = dict(args.option)
    if args.players is None and args.reading is None and not options:
        return describe_preset(args.preset)
    rules = make_rules(args.preset, args.players, args.reading, **options)
    return title(args.preset, rules.num_players, args.reading, options) + "\n\n" + describe(rules)


def run(args: argparse.Namespace) -> int:
    """Print the description, rendered for the terminal (or as Markdown with ``--markdown``)."""
    text = markdown(args)
    if not args.markdown:
        terminal = sys.stdout.isatty()
        styled = terminal and not os.environ.get("NO_COLOR")
        width = min(shutil.get_terminal_size().columns, 100) if terminal else None
        text = terminal_text(text, styled=styled, width=width)
    print(text)
    return 0


# ---------------------------------------------------------------------- Markdown for a terminal
_COMMENT = re.compile(r"<!--.*?-->", re.S)
_LINK = re.compile(r"\[((?:[^\]\\]|\\.)*)\]\(([^()\s]*)\)")
_CODE = re.compile(r"(`+)(.+?)\1")
_BOLD = re.compile(r"\*\*(.+?)\*\*")
_HEADING = re.compile(r"(#{1,6})\s+(.*?)\s*#*\s*$")
_ITEM = re.compile(r"(\s*)[-*+]\s+(.*)")
_BOLD_ON, _BOLD_OFF = "\x1b[1m", "\x1b[0m"
_MARK_ON, _MARK_OFF = "\x02", "\x03"  # bold spans while wrapping; ANSI (or nothing) after
_KEEP = "\x04"  # a space of a code span while wrapping: the span stays on one line
BULLETS = ("•", "◦")
"""The bullet of a list item at each depth (the last one for deeper items)."""


def inline_text(text: str) -> str:
    """One line of Markdown as plain text: links as their text (a web address in parentheses
    after it), code spans and bold as their content; bold spans marked for :func:`terminal_text`."""

    def link(match: re.Match) -> str:
        label, target = match.group(1), match.group(2)
        return f"{label} ({target})" if "://" in target else label

    text = _LINK.sub(link, text)
    code: list[str] = []  # code spans are verbatim: no bold inside them
    text = _CODE.sub(
        lambda m: code.append(m.group(2).strip().replace(" ", _KEEP)) or f"\x00{len(code) - 1}\x00", text
    )
    text = _BOLD.sub(lambda m: _MARK_ON + m.group(1) + _MARK_OFF, text)
    return re.sub(r"\x00(\d+)\x00", lambda m: code[int(m.group(1))], text)


def _plain(text: str) -> str:
    """:func:`inline_text`'s output without its marks (for tables and headings)."""
    return text.replace(_MARK_ON, "").replace(_MARK_OFF, "").replace(_KEEP, " ")


def _table(rows: list[str]) -> list[str]:
    """A Markdown table as aligned columns, a rule under the header."""
    cells = [
        [_plain(inline_text(cell.strip())) for cell in cells]
        for cells in (re.split(r"(?<!\\)\|", row.strip().strip("|")) for row in rows)
        if not all(re.fullmatch(r"\s*:?-+:?\s*", cell) for cell in cells)
    ]
    cells = [[cell.replace("\\|", "|") for cell in row] for row in cells]
    columns = max(len(row) for row in cells)
    cells = [row + [""] * (columns - len(row)) for row in cells]
    widths = [max(len(row[i]) for row in cells) for i in range(columns)]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in cells]
    return lines[:1] + ["  ".join("-" * w for w in widths)] + lines[1:]


def _wrap(text: str, width: int | None, first: str, rest: str) -> list[str]:
    """``text`` after the prefix ``first`` (then ``rest``), wrapped to ``width`` when given."""
    if width is None:
        return [first + text]
    return textwrap.wrap(
        text, width, initial_indent=first, subsequent_indent=rest, break_on_hyphens=False
    ) or [first.rstrip()]


def terminal_text(text: str, *, styled: bool = False, width: int | None = None) -> str:
    """Markdown ``text`` (as :mod:`hearts_env.describe` writes it) as plain terminal text.

    HTML comments are dropped; headings become a line underlined with ``=`` (``#``, ``##``) or
    ``-``; links become their text, code spans and bold their content; list items get bullets
    (``•``, nested ``◦``); tables become aligned columns; fenced code is indented. ``styled``:
    headings and bold words in ANSI bold. ``width``: paragraphs and items wrapped to it (tables
    and code never are); None keeps each paragraph on one line.
    """
    on, off = (_BOLD_ON, _BOLD_OFF) if styled else ("", "")
    lines = _COMMENT.sub("", text).splitlines()
    out: list[str] = []
    paragraph: list[str] = []
    item: tuple[int, str] | None = None  # (depth, text) of the list item being read

    def flush() -> None:
        nonlocal item
        if paragraph:
            out.extend(_wrap(inline_text(" ".join(paragraph)), width, "", ""))
            paragraph.clear()
        if item is not None:
            depth, words = item
            bullet = BULLETS[min(depth, len(BULLETS) - 1)]
            pad = "  " * depth
            out.extend(_wrap(inline_text(words), width, f"{pad}{bullet} ", pad + "  "))
            item = None

    def blank() -> None:
        if out and out[-1] != "":
            out.append("")

    i = 0
    while i < len(lines):
        line = lines[i]
        stripped = line.strip()
        if stripped.startswith("```"):
            flush()
            i += 1
            while i < len(lines) and not lines[i].strip().startswith("```"):
                out.append("    " + lines[i])
                i += 1
        elif not stripped:
            flush()
            blank()
        elif heading := _HEADING.fullmatch(stripped):
            flush()
            blank()
            words = _plain(inline_text(heading.group(2)))
            out += [on + words + off, ("=" if len(heading.group(1)) <= 2 else "-") * len(words), ""]
        elif stripped.startswith("|"):
            flush()
            rows = []
            while i < len(lines) and lines[i].strip().startswith("|"):
                rows.append(lines[i])
                i += 1
            out.extend(_table(rows))
            continue
        elif bullet := _ITEM.fullmatch(line):
            flush()
            item = (len(bullet.group(1).expandtabs(4)) // 2, bullet.group(2))
        elif item is not None:  # a continuation of the item
            item = (item[0], item[1] + " " + stripped)
        else:
            paragraph.append(stripped)
        i += 1
    flush()
    while out and out[-1] == "":
        out.pop()
    return "\n".join(out).replace(_MARK_ON, on).replace(_MARK_OFF, off).replace(_KEEP, " ")
