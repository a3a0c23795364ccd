"""The README as a newcomer reads it: its quickstart runs as written, its links resolve, it stays
short, and neither it nor the docs or the results narrate how they were made."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_runnable_docs import MARKER, marked_blocks

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"


def section(text: str, title: str) -> str:
    """The body of the ``## title`` section of a Markdown text."""
    match = re.search(rf"(?ms)^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text)
    assert match, f"README has no section {title!r}"
    return match.group(1)


def python_blocks(text: str) -> list[str]:
    return re.findall(r"(?ms)^```python\n(.*?)^```", text)


QUICKSTART = python_blocks(section(README.read_text(encoding="utf-8"), "Quickstart"))


def test_the_quickstart_has_the_three_envs() -> None:
    joined = "\n".join(QUICKSTART)
    assert len(QUICKSTART) == 3
    for call in ("hearts_env.env(", "hearts_env.vector_env(", "hearts_env.single_agent_env("):
        assert call in joined, call


def test_each_quickstart_block_is_marked_runnable() -> None:
    """tests/test_runnable_docs.py runs each quickstart block as a reader pastes it (in a fresh
    interpreter, from an empty directory): each must carry its marker."""
    marked = {block.code for block in marked_blocks(README.read_text(encoding="utf-8"), "README.md")[0]}
    unmarked = [number for number, code in enumerate(QUICKSTART) if code not in marked]
    assert not unmarked, f"quickstart blocks {unmarked} are not marked {MARKER}: mark them"


def test_the_pettingzoo_block_prints_every_seat_s_deal_points(tmp_path: Path) -> None:
    script = tmp_path / "block.py"
    script.write_text(QUICKSTART[0], encoding="utf-8")
    out = subprocess.run([sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True).stdout
    points = ast.literal_eval(out.strip().splitlines()[-1])
    assert sorted(points) == ["player_0", "player_1", "player_2"], points
    assert all(isinstance(value, int) for value in points.values()), points


def test_the_readme_is_short() -> None:
    lines = README.read_text(encoding="utf-8").count("\n")
    assert lines <= 250, f"README.md has {lines} lines; move detail to docs/"


def slug(heading: str) -> str:
    """GitHub's anchor of a heading."""
    text = re.sub(r"[^\w\- ]", "", heading.strip().lower())
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = re.sub(r"(?ms)^```.*?^```", "", path.read_text(encoding="utf-8"))
    found = {slug(m) for m in re.findall(r"(?m)^#+ (.*)$", text)}
    return found | set(re.findall(r'<a (?:name|id)="([^"]+)"', text))


MARKDOWN = [README, *sorted((ROOT / "docs").glob("*.md")), ROOT / "results" / "README.md"]


@pytest.mark.parametrize("path", MARKDOWN, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_resolves(path: Path) -> None:
    text = re.sub(r"(?ms)^```.*?^```", "", path.read_text(encoding="utf-8"))
    broken = []
    for target in re.findall(r"\]\(([^)\s]+)\)", text):
        if re.match(r"[a-z]+:", target):
            continue
        file, _, anchor = target.partition("#")
        linked = (path.parent / file).resolve() if file else path
        if not linked.exists():
            broken.append(target)
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            broken.append(target)
    assert not broken, f"{path.name}: links that lead nowhere: {broken}"


DEVELOPMENT_LOG = {
    "narrates the session": (
        r"\b(earlier|later) in this\b|\b(this|that|the|first|second|third|same|earlier|later) session\b"
    ),
    "names an issue": r"\bissues? ?#?\d+|\bissue-\d+",
    "rounds of work": (
        r"\b(first|second|third) (round|pass|reading)s?\b(?!\s+of\s+(the|every|each)\s+(file|tournament))"
    ),
    "a dated reading": r"\d{4}-\d{2}-\d{2} (reading|rule corrections)",
    "a target verdict": r"(?-i:\bMISSED\b)",
    "a stale count": r"\b45 configurations\b",
    "the outside specification": "(?-i:RULES" + r"\.md)",
}
"""Wording that tells how and when something was made instead of what it is."""

PAGES = [
    README,
    ROOT / "CHANGELOG.md",
    *sorted((ROOT / "docs").glob("*.md")),
    *sorted((ROOT / "results").rglob("*.md")),
]


@pytest.mark.parametrize(
    "path", [p for p in PAGES if p.exists()], ids=lambda p: p.relative_to(ROOT).as_posix()
)
def test_no_development_log_wording(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    found = [
        f"{why}: {m.group(0)!r} (line {text.count(chr(10), 0, m.start()) + 1})"
        for why, pattern in DEVELOPMENT_LOG.items()
        for m in re.finditer(pattern, text, re.I)
    ]
    assert not found, f"{path.relative_to(ROOT)}: {found}"


def test_the_wording_check_can_fail() -> None:
    for sample in ("as measured earlier in this session", "the issue-12 targets", "(issues 8 and 9)",
                   "  packed 1 procs: 7.75M/s MISSED", "the 2026-12-01 reading of the sources",
                   "all 45 configurations", "since the second reading"):  # fmt: skip
        assert any(re.search(p, sample, re.I) for p in DEVELOPMENT_LOG.values()), sample
