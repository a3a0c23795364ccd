"""Every fenced block of README.md and docs/*.md marked runnable runs as written.

**The marker.** An HTML comment alone on the line before the opening fence::

    <!-- runnable -->
    ```python
    ...
    ```

GitHub and the docs site (MyST) show nothing of it. It may also take the place of the blank line
after the sentence that introduces the block (a comment ends a paragraph in CommonMark): README.md
does so, to stay as short as ``tests/test_readme.py`` wants it. Mark a block when a reader can paste it as it
is and it takes a few seconds: a quickstart, an example, a short command (``hearts-env tournament
... --deals 8``). Leave unmarked a signature or a fragment (not a program), a command of minutes
or hours, one that needs an extra (``[sb3]``, ``[rllib]``) or files a run writes first.

**How each runs.** In a fresh process, from an empty temporary directory in which ``examples`` is
the checkout's (the docs name ``examples/my_agent.py``), within :data:`BUDGET` seconds: a
``python`` block with this interpreter, a ``bash``/``sh`` block with ``bash -e`` and this
interpreter's folder first on ``PATH`` (its ``hearts-env``).
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MARKER = "<!-- runnable -->"
BUDGET = 60
"""Seconds a marked block may take."""
LANGUAGES = {"python": "python", "bash": "bash", "sh": "bash", "shell": "bash"}
SOURCES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
AT_LEAST = {
    "README.md": 3,
    "docs/index.md": 3,
    "docs/single-agent.md": 2,
    "docs/your-agent.md": 2,
    "docs/positions-and-search.md": 1,
    "docs/observation.md": 2,
}
"""How many marked blocks these pages hold at least: their quickstarts and examples stay tested."""


@dataclass(frozen=True)
class Block:
    """A marked block: where it is (``docs/index.md:40``, its fence's line), its language, its code."""

    where: str
    language: str
    code: str


def marked_blocks(text: str, name: str) -> tuple[list[Block], list[str]]:
    """The marked blocks of Markdown ``text`` (of file ``name``), and each misplaced marker as
    ``name:line: what is wrong``."""
    lines = text.splitlines()
    blocks, problems = [], []
    for number, line in enumerate(lines):
        if line.strip() != MARKER:
            continue
        fence = lines[number + 1] if number + 1 < len(lines) else ""
        where = f"{name}:{number + 2}"
        if not fence.startswith("```"):
            problems.append(f"{name}:{number + 1}: {MARKER} is not followed by a fence, got {fence!r}")
            continue
        language = fence[3:].strip()
        if language not in LANGUAGES:
            problems.append(f"{where}: a marked block must be one of {sorted(LANGUAGES)}, got {language!r}")
            continue
        end = next((i for i in range(number + 2, len(lines)) if lines[i].startswith("```")), None)
        if end is None:
            problems.append(f"{where}: the marked block is never closed")
            continue
        blocks.append(Block(where, LANGUAGES[language], "\n".join(lines[number + 2 : end]) + "\n"))
    return blocks, problems


def all_blocks() -> tuple[list[Block], list[str]]:
    """The marked blocks of README.md and docs/*.md, and their misplaced markers."""
    blocks, problems = [], []
    for path in SOURCES:
        found, wrong = marked_blocks(path.read_text(encoding="utf-8"), path.relative_to(ROOT).as_posix())
        blocks += found
        problems += wrong
    return blocks, problems


def run_block(block: Block, folder: Path, budget: float = BUDGET) -> str | None:
    """Run ``block`` from ``folder`` as the module docstring says; None when it succeeds, else why not."""
    (folder / "examples").symlink_to(ROOT / "examples", target_is_directory=True)
    script = folder / ("block.py" if block.language == "python" else "block.sh")
    script.write_text(block.code, encoding="utf-8")
    command = [sys.executable, str(script)] if block.language == "python" else ["bash", "-e", str(script)]
    env = dict(os.environ, MPLBACKEND="Agg", PYTHONDONTWRITEBYTECODE="1")
    env["PATH"] = os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")])
    try:
        done = subprocess.run(command, cwd=folder, env=env, capture_output=True, text=True, timeout=budget)
    except subprocess.TimeoutExpired:
        return f"{block.where}: took more than {budget:g} s (unmark it, or make it cheaper)"
    if done.returncode != 0:
        return f"{block.where}: exit {done.returncode}\n{block.code}\n{(done.stdout + done.stderr)[-3000:]}"
    return None


BLOCKS, PROBLEMS = all_blocks()


@pytest.mark.parametrize("block", BLOCKS, ids=[block.where for block in BLOCKS])
def test_each_marked_block_runs_as_written(block: Block, tmp_path: Path) -> None:
    failure = run_block(block, tmp_path)
    assert failure is None, failure


def test_every_marker_marks_a_block_that_can_run() -> None:
    assert not PROBLEMS, "\n".join(PROBLEMS)


def test_the_quickstarts_and_examples_are_marked() -> None:
    counts = {name: sum(block.where.startswith(name + ":") for block in BLOCKS) for name in AT_LEAST}
    short = {name: count for name, count in counts.items() if count < AT_LEAST[name]}
    assert not short, f"fewer marked blocks than {AT_LEAST} in {short}: were markers removed?"


def test_a_broken_block_a_slow_one_and_a_misplaced_marker_are_found(tmp_path: Path) -> None:
    text = (
        f"{MARKER}\n```python\nimport hearts_env\nhearts_env.env('no_such_preset')\n```\n\n"
        f"{MARKER}\n```sh\nhearts-env --help >/dev/null\nfalse\necho never\n```\n\n"
        f"{MARKER}\n```bash\nsleep 5\n```\n\n"
        f"{MARKER}\n\n```python\nprint(1)\n```\n{MARKER}\n```text\nout\n```\n"
    )
    blocks, problems = marked_blocks(text, "page.md")
    assert [block.where for block in blocks] == ["page.md:2", "page.md:8", "page.md:15"]
    assert [line.split(": ")[0] for line in problems] == ["page.md:19", "page.md:25"], problems
    for number, (block, expected) in enumerate(zip(blocks, ["no_such_preset", "exit 1", "more than 1 s"])):
        folder = tmp_path / str(number)
        folder.mkdir()
        failure = run_block(block, folder, budget=1 if number == 2 else BUDGET)
        assert failure is not None and expected in failure, failure
    folder = tmp_path / "fine"
    folder.mkdir()
    assert run_block(Block("page.md:1", "bash", "ls examples/my_agent.py\n"), folder) is None
