"""What a newcomer meets in the first minutes: the ``play`` header fits the terminal, a card keeps
its number while the pass is chosen, the README's quickstart prints what it promises, the docs'
snippets import what they use, and a folder of one's own named ``agents`` is named as the cause
when it hides hearts-env's package."""

from __future__ import annotations

import ast
import builtins
import importlib.util
import re
import subprocess
import sys
from pathlib import Path

import pytest

from hearts_cli.play import Game

ROOT = Path(__file__).resolve().parent.parent
ANSI = re.compile(r"\x1b\[[0-9;]*m")
NUMBERED = re.compile(r"\[(\d+)\]\s+(\S+)")


def play_until(preset: str, answers: list[str], num_players: int | None = None) -> list[str]:
    """The screens of ``play`` (colours off) up to each prompt, answering ``answers`` in turn and
    quitting after them: one text per prompt, the introduction in the first."""
    screens: list[str] = []
    written: list[str] = []
    queue = list(answers)

    def read(prompt: str) -> str:
        screens.append("\n".join(written))
        written.clear()
        return queue.pop(0) if queue else "q"

    game = Game(preset, 0, ["random"], num_players, {}, 7, 1, False, read=read, write=written.append)
    game.run()
    return screens


def header(screen: str) -> list[str]:
    """The introduction and the headline of a screen: every line down to the second rule under
    the first headline."""
    lines = ANSI.sub("", screen).splitlines()
    rules = [i for i, line in enumerate(lines) if line.startswith("═")]
    return lines[: rules[1] + 1]


@pytest.mark.parametrize("columns", [120, 80, 50])
@pytest.mark.parametrize(("preset", "players"), [("black_maria", 6), ("smear_partnership", None)])
def test_the_play_header_fits_the_terminal(
    preset: str, players: int | None, columns: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Six seats and Smear's longest description, in a terminal of 120, 80 and 50 columns: no
    line wider than it, and every seat still named once."""
    monkeypatch.setenv("COLUMNS", str(columns))
    lines = header(play_until(preset, [], players)[0])
    too_wide = [line for line in lines if len(line) > columns]
    assert not too_wide, f"{columns} columns: {too_wide}"
    seats = " ".join(lines)
    for seat in range(players or 4):
        assert seats.count(f"seat {seat} ") == 1, seats


def numbers(screen: str) -> dict[str, int]:
    """Each card shown with a number (in the hand or among the cards chosen to pass) -> its number."""
    text = ANSI.sub("", screen)
    shown = text[text.rindex("Chosen to pass") if "Chosen to pass" in text else text.rindex("Your hand") :]
    return {card: int(k) for k, card in NUMBERED.findall(shown)}


def test_a_card_keeps_its_number_while_the_pass_is_chosen() -> None:
    """Standard Hearts passes three cards: after each pick the others keep their numbers, the
    picked one shows its number among the chosen, and its number again is refused with the reason."""
    screens = play_until("hearts", ["2", "2", "5"])  # the second "2": a card already chosen
    first, second, third = numbers(screens[0]), numbers(screens[1]), numbers(screens[3])
    assert sorted(first.values()) == list(range(1, 14)), first
    assert second == first and third == first, (first, second, third)
    assert "Chosen to pass: [2] " in screens[1] and "[5] " in screens[3].split("Chosen to pass: ")[1]
    assert "already chosen it to pass" in screens[2] and "Your hand" not in screens[2], screens[2]


def python_blocks(path: Path) -> list[str]:
    return re.findall(r"(?ms)^```python\n(.*?)^```", path.read_text(encoding="utf-8"))


def run_block(code: str, tmp_path: Path) -> str:
    script = tmp_path / "block.py"
    script.write_text(code, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


QUICKSTART = python_blocks(ROOT / "README.md")[:2]


def test_the_first_quickstart_prints_the_seats_in_order(tmp_path: Path) -> None:
    points = ast.literal_eval(run_block(QUICKSTART[0], tmp_path).strip().splitlines()[-1])
    assert list(points) == ["player_0", "player_1", "player_2"], points


def test_the_vector_quickstart_prints_its_deals_points(tmp_path: Path) -> None:
    """The vector env's block says how many deals its games played and every seat's mean points
    (a deal of standard Hearts hands out 26 points, or 78 when the moon is shot)."""
    assert "hearts_env.vector_env(" in QUICKSTART[1]
    last = run_block(QUICKSTART[1], tmp_path).strip().splitlines()[-1]
    match = re.fullmatch(r"(\d+) deals; mean points by seat \(lower is better\): \[([\d. ]+)\]", last)
    assert match, last
    means = [float(x) for x in match.group(2).split()]
    assert int(match.group(1)) >= 4096 and len(means) == 4, last
    assert 26 <= sum(means) <= 78, last


def used_modules(code: str) -> set[str]:
    """The modules a snippet reads attributes of (``hearts_env.env``, ``np.zeros``) without
    importing or defining them: nothing, for a snippet that imports what it uses."""
    tree = ast.parse(code)
    defined = set(dir(builtins))
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            defined |= {(alias.asname or alias.name).split(".")[0] for alias in node.names}
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            defined.add(node.name)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            defined.add(node.id)
        elif isinstance(node, ast.arg):
            defined.add(node.arg)
    read = {
        node.value.id
        for node in ast.walk(tree)
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name)
    }
    aliases = {"np", "plt", "pd"}  # numpy, matplotlib.pyplot, pandas as usually imported
    return {name for name in read - defined if name in aliases or importlib.util.find_spec(name) is not None}


SNIPPETS = [
    (path, number, code)
    for path in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
    for number, code in enumerate(python_blocks(path))
]


def parses(code: str) -> bool:
    try:
        ast.parse(code)
    except SyntaxError:  # a signature (``f(a, *, b) -> T``), not a snippet to run
        return False
    return True


@pytest.mark.parametrize(
    ("path", "number", "code"),
    [snippet for snippet in SNIPPETS if parses(snippet[2])],
    ids=[f"{p.relative_to(ROOT).as_posix()}#{n}" for p, n, c in SNIPPETS if parses(c)],
)
def test_every_snippet_imports_what_it_uses(path: Path, number: int, code: str) -> None:
    assert not used_modules(code), f"{path.name} block {number} uses {used_modules(code)} unimported:\n{code}"


def test_a_snippet_without_its_import_is_caught() -> None:
    """The check above can fail: the two snippets the docs had without ``import hearts_env``."""
    assert used_modules('hearts_env.env("hearts", moon="new")') == {"hearts_env"}
    assert used_modules("x = np.zeros(3)") == {"np"}
    assert not used_modules("import numpy as np\nx = np.zeros(3)\nx.sum()")


@pytest.mark.parametrize("own", ["agents/__init__.py", "agents/notes.txt", "agents.py"])
def test_an_agents_folder_of_ones_own_is_named_as_the_cause(own: str, tmp_path: Path) -> None:
    """A researcher's ``agents/`` folder (with or without ``__init__.py``) or ``agents.py`` in the
    working directory hides hearts-env's package for ``python -m hearts_cli``, a script or a
    notebook there: the error names the folder found and what to do, in its last line."""
    (tmp_path / own).parent.mkdir(parents=True, exist_ok=True)
    (tmp_path / own).write_text("x = 1\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "hearts_cli", "rules", "hearts"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120,
    )  # fmt: skip
    assert done.returncode != 0
    last = done.stderr.strip().splitlines()[-1]
    found = tmp_path / own.split("/")[0] if own.startswith("agents/") else tmp_path / own
    assert f"the module 'agents' found at {found}" in last, last
    assert "is not hearts-env's" in last and "rename yours, or run from another directory" in last, last
