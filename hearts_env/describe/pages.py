"""The generated blocks of ``docs/rules.md``, and the command ``python -m hearts_env.describe``.

A block sits between ``<!-- begin KEY -->`` and ``<!-- end KEY -->`` markers: ``index`` (the
preset index), ``options`` (the options table) or ``preset:NAME`` (a preset's section).
:func:`regenerate` rewrites them from the data; ``tests/test_docs.py`` checks that the shipped
document equals its output.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Sequence
from pathlib import Path

from hearts_env.describe.options import describe_options
from hearts_env.describe.sections import describe_preset, preset_index
from hearts_env.files import write_atomic
from hearts_env.presets import PRESETS

_BLOCK = re.compile(r"<!-- begin (?P<key>[\w:]+) -->\n(?:(?P<body>.*?)\n)?<!-- end (?P=key) -->", re.S)
_NEW_SECTIONS = "<!-- new preset sections go above this line -->"
_DESCRIPTION = (
    "The rules in words, written from the rules data itself, so the text cannot drift from the code."
)


def generated(key: str) -> str:
    """The text of a generated block: ``index``, ``options`` or ``preset:NAME``."""
    if key == "index":
        return preset_index()
    if key == "options":
        return describe_options()
    kind, _, name = key.partition(":")
    if kind != "preset":
        raise ValueError(f"unknown generated block {key!r}: index, options or preset:NAME")
    return describe_preset(name)


def blocks(document: str) -> dict[str, str]:
    """The generated blocks of a document, by key; a key found twice is a ``ValueError``."""
    found: dict[str, str] = {}
    for m in _BLOCK.finditer(document):
        if m["key"] in found:
            raise ValueError(f"the generated block {m['key']!r} appears twice")
        found[m["key"]] = m["body"] or ""
    return found


def regenerate(document: str) -> str:
    """``document`` with every generated block rewritten from the data, and a new section (its
    block and an empty notes heading) for each preset it lacks. A block for a preset that no
    longer exists is a ``ValueError``: remove that section by hand."""
    stale = [key for key in blocks(document) if key.startswith("preset:") and key[7:] not in PRESETS]
    if stale:
        raise ValueError(f"sections for presets that do not exist: {', '.join(stale)}; remove them")
    out = _BLOCK.sub(
        lambda m: f"<!-- begin {m['key']} -->\n{generated(m['key'])}\n<!-- end {m['key']} -->", document
    )
    missing = [name for name in PRESETS if f"preset:{name}" not in blocks(out)]
    if missing:
        if _NEW_SECTIONS not in out:
            raise ValueError(f"no place for new sections: add the line {_NEW_SECTIONS!r}")
        new = "".join(
            f"<!-- begin preset:{name} -->\n{describe_preset(name)}\n<!-- end preset:{name} -->\n\n"
            "### Notes (hand-written)\n\nTo be written.\n\n"
            for name in missing
        )
        out = out.replace(_NEW_SECTIONS, new + _NEW_SECTIONS)
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m hearts_env.describe [PRESET] [--write FILE | --check FILE]``."""
    parser = argparse.ArgumentParser(prog="python -m hearts_env.describe", description=_DESCRIPTION)
    parser.add_argument("preset", nargs="?", help="print this preset's rules")
    parser.add_argument("--write", type=Path, metavar="FILE", help="regenerate FILE's generated blocks")
    parser.add_argument("--check", type=Path, metavar="FILE", help="exit 1 if FILE's blocks are out of date")
    args = parser.parse_args(argv)
    path = args.write or args.check
    if path is not None:
        text = path.read_text(encoding="utf-8")
        new = regenerate(text)
        if args.check:
            if new != text:
                print(f"{path} is out of date: run python -m hearts_env.describe --write {path}")
                return 1
            print(f"{path} is up to date")
        elif new != text:
            write_atomic(path, new)
            print(f"wrote {path}")
        return 0
    if args.preset:
        print(describe_preset(args.preset))
        return 0
    print(preset_index())
    return 0
