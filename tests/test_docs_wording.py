"""The docs are written for users: they say how to use a thing and what was measured, with its
command, not how and where it was made. How a setting was chosen lives in ``experiments/``, one
folder a question, each stating the question, the command and the answer.

What is checked in ``docs/*.md`` (less the generated blocks: the rules reference's
``<!-- begin X -->`` … ``<!-- end X -->`` and the figures' ``<!-- figure: X -->`` …
``<!-- /figure -->``, rendered from files that record their own provenance):

- no commit hash outside a provenance line (:data:`PROVENANCE`);
- no absolute scratch or machine path (:data:`MACHINE_PATH`);
- no narrative of sessions, machines or the writers (:data:`NARRATIVE`).

``tests/test_readme.py`` checks the development-log wording (sessions, issues, rounds of work) in
README.md, the docs and results/; the experiments' READMEs get both lists here, and their figure
blocks, numbers and links the checks README.md's get.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import tests.test_readme as readme
from tests.test_figures import MEASURED
from tools import figures

ROOT = Path(__file__).resolve().parent.parent
DOCS = sorted((ROOT / "docs").glob("*.md"))
EXPERIMENTS = sorted((ROOT / "experiments").glob("*/README.md"))

GENERATED = re.compile(
    r"<!-- begin (?P<name>[^>]*?) -->.*?<!-- end (?P=name) -->"
    r"|<!-- figure: [\w-]+ -->.*?<!-- /figure -->",
    re.S,
)
"""A block written by a program from files (the rules reference, a figure), not by hand."""

COMMIT_HASH = re.compile(r"(?<![\w-])(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,40}(?![\w-])")
"""A git commit's hash, abbreviated or whole: 7 to 40 lowercase hex digits, with a digit and a letter."""

PROVENANCE = re.compile(r"(?=.*\b(?:commit|measured at)\b)(?=.*(?:results/|\.json\b))", re.I)
"""A provenance line: it cites a results file (a path under ``results/`` or a ``.json`` file) and
says ``commit`` or ``measured at``; only such a line may hold a commit hash."""

MACHINE_PATH = re.compile(
    r"(?<![\w.~/-])(?:/tmp|/var/tmp|/work|/root|/scratch|/mnt|/home/[^/\s`]+|/Users/[^/\s`]+)/"
    r"|(?<![\w.])~/(?!\.)"
)
"""An absolute path on one computer: a scratch folder, a home folder (``~/`` too, but a tool's own
dotfile such as ``~/.ray/auth_token`` is where that tool keeps it everywhere)."""

NARRATIVE = {
    "a machine as the narrator's": (
        r"\b(?:this|the project's) (?:project's )?(?:shared )?(?:\d+-core )?machines?\b"
    ),
    "a session": r"\bsessions?\b",
    "today": r"\btoday(?:'s)?\b",
    "the writers": r"\b(?:we|our|ours|us)\b",
    "a lent computer": r"\blent\b",
    "a scratch path": r"\bscratch (?:paths?|folders?|director(?:y|ies))\b",
    "the way there": r"\b(?:on the way|so far on|at the time of writing)\b",
}
"""Phrases that tell the story of the work (who, where, when) instead of what a thing is."""


def hand_written(text: str) -> str:
    """``text`` with every generated block blanked, its newlines kept so line numbers still hold."""
    return GENERATED.sub(lambda m: "\n" * m.group(0).count("\n"), text)


def findings(text: str, narrative: dict[str, str] = NARRATIVE) -> list[str]:
    """Every commit hash outside a provenance line, machine path and narrative phrase of ``text``."""
    found = []
    for number, line in enumerate(hand_written(text).splitlines(), 1):
        if not PROVENANCE.search(line):
            found += [f"line {number}: commit hash {m.group(0)!r}" for m in COMMIT_HASH.finditer(line)]
        found += [f"line {number}: machine path {m.group(0)!r}" for m in MACHINE_PATH.finditer(line)]
        found += [
            f"line {number}: {why} {m.group(0)!r}"
            for why, pattern in narrative.items()
            for m in re.finditer(pattern, line, re.I)
        ]
    return found


def name(path: Path) -> str:
    return path.relative_to(ROOT).as_posix()


@pytest.mark.parametrize("path", DOCS, ids=name)
def test_a_docs_page_tells_no_story_of_its_making(path: Path) -> None:
    found = findings(path.read_text(encoding="utf-8"))
    assert not found, f"{name(path)}: rewrite as facts with their commands, or move to experiments/: {found}"


def test_the_results_page_tells_no_story_of_its_making() -> None:
    """results/README.md, which the README links for commands, may name commits: its before-and-after
    commands need them."""
    text = (ROOT / "results" / "README.md").read_text(encoding="utf-8")
    found = [f for f in findings(text) if "commit hash" not in f]
    assert not found, f"results/README.md: {found}"


def test_the_wording_checks_can_fail() -> None:
    planted = {
        "a hash": "the default changed at 19c23b4 to margin 1",
        "a whole hash": "see b34e0dcfeb95a1b2c3d4e5f60718293a4b5c6d7e",
        "a scratch path": "its JSON is /tmp/tp/fast_seeds.json",
        "a work path": "--json /work/probe/tp/fast.json",
        "a home path": "run it from /home/alice/hearts",
        "a tilde path": "--run-dir ~/runs/hearts",
        "this machine": "not met on this machine (29.6k)",
        "the project's machine": "The project's machine changes from session to session",
        "a 2-core machine": "on this project's 2-core machine",
        "today": "against the smear heuristic of today",
        "we": "we tried a sparse first layer",
        "lent": "where one was lent",
        "a scratch path's story": "moved from a scratch path",
        "the way there": "Tried on the way and dropped",
        "a hash in a generated-looking block left open": "<!-- figure: x -->\nat 769bf5d",
    }
    for what, text in planted.items():
        assert findings(text), what
    fine = (
        "measured at commit 769bf5d (`results/training_seeds/formats.json`)",  # a provenance line
        "Made by `--json docs/leaderboard.json` at commit `b34e0dcfeb95` on 2026-12-06.",
        "<!-- figure: training-seeds -->\n`--arm default@769bf5d=`\n<!-- /figure -->",
        "<!-- begin preset:hearts -->\nat 769bf5d\n<!-- end preset:hearts -->",
        "the cluster's token (`~/.ray/auth_token` from the head)",
        "a facade of 1000000 decisions; the colour #1f77b4; sha256",
        "every card played so far; a trick played again on a scratch copy; a silent partner",
    )
    for text in fine:
        assert not findings(text), text


SECTIONS = ("Question", "Command", "Answer")
"""The sections every experiment's README has, in this order."""


def sections(text: str) -> dict[str, str]:
    """The ``## title`` sections of a Markdown text, by title (fenced blocks do not end one)."""
    found: dict[str, str] = {}
    title, body, fenced = None, [], False
    for line in text.splitlines():
        fenced ^= line.startswith("```")
        if line.startswith("## ") and not fenced:
            if title:
                found[title] = "\n".join(body)
            title, body = line[3:].strip(), []
        elif title:
            body.append(line)
    if title:
        found[title] = "\n".join(body)
    return found


def structure_problems(text: str) -> list[str]:
    """What an experiment's README lacks: a question, a command in a fenced block, an answer."""
    found = sections(text)
    problems = [f"no '## {title}' section" for title in SECTIONS if title not in found]
    if [t for t in found if t in SECTIONS] != [t for t in SECTIONS if t in found]:
        problems.append(f"the sections are not in the order {SECTIONS}")
    fence = re.compile(r"^```(?:bash|sh|console)?\n.+?\n```", re.S | re.M)
    if "Command" in found and not fence.search(found["Command"]):
        problems.append("the Command section has no fenced block")
    problems += [f"the {t} section is empty" for t in ("Question", "Answer") if not found.get(t, "x").strip()]
    if not text.startswith("# "):
        problems.append("no '# title' line first")
    return problems


def test_there_are_experiments() -> None:
    assert EXPERIMENTS, "experiments/ has no <question>/README.md"


@pytest.mark.parametrize("path", EXPERIMENTS, ids=name)
def test_an_experiment_states_its_question_command_and_answer(path: Path) -> None:
    problems = structure_problems(path.read_text(encoding="utf-8"))
    assert not problems, f"{name(path)}: {problems}"


@pytest.mark.parametrize("path", EXPERIMENTS, ids=name)
def test_an_experiment_quotes_its_files_and_tells_no_story(path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    stale = figures.stale(path)
    assert not stale, f"{name(path)}: blocks {stale} differ from their files (figures.render rewrites them)"
    loose = MEASURED.findall(figures.outside_blocks(text))
    assert not loose, f"{name(path)}: measured numbers outside figure blocks: {loose}"
    wording = {**NARRATIVE, **readme.DEVELOPMENT_LOG}
    found = [f for f in findings(text, wording) if "commit hash" not in f]  # an arm names its commit
    assert not found, f"{name(path)}: {found}"


@pytest.mark.parametrize("path", [ROOT / "experiments" / "README.md", *EXPERIMENTS], ids=name)
def test_an_experiment_s_links_resolve(path: Path) -> None:
    readme.test_every_relative_link_resolves(path)


def test_the_structure_check_can_fail() -> None:
    whole = "# T\n\n## Question\n\nWhy?\n\n## Command\n\n```bash\nmake run\n```\n\n## Answer\n\nThis.\n"
    assert not structure_problems(whole)
    broken = {
        "no question": whole.replace("## Question", "## Why"),
        "no fenced command": whole.replace("```bash\nmake run\n```", "make run"),
        "the answer in the command block": whole.replace("```\n\n## Answer\n\nThis.", "## Answer\n```"),
        "an empty answer": whole.replace("This.", ""),
        "out of order": "# T\n\n## Answer\n\nThis.\n\n## Question\n\nWhy?\n\n## Command\n\n```bash\nx\n```\n",
        "no title": whole[4:],
    }
    for what, text in broken.items():
        assert structure_problems(text), what
