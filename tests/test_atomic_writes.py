"""Every file the shipped packages write goes through hearts_env.files (docs/reliability.md).

A raw ``write_text``, ``open(..., "w")``, ``savefig`` or ``torch.save`` to a user's path would
leave half a file when the process is killed mid-write. Writing the temporary file that
:func:`hearts_env.files.write_atomic` hands to a callable is how the content gets there: such
a call writes to a name ``tmp`` or ``partial`` (the convention this test reads).
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("hearts_env", "agents", "evaluation", "training", "benchmarks", "hearts_cli", "tools")
TEMPORARY = {"tmp", "partial"}
"""Names of the temporary path a writer callable is given."""
ALLOWED = {
    ("hearts_env/files.py", "open"): "the atomic writer itself",
    ("tools/interleaved.py", "write_text"): "rewrites a scratch copy of the package it made itself",
    ("tools/training_seeds.py", "open"): "a child process's log, appended to as it runs",
}


def _writes(node: ast.Call) -> str | None:
    """The name of the writing call ``node`` is, if it writes a file."""
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr in ("write_text", "write_bytes", "savefig"):
        return func.attr
    if isinstance(func, ast.Attribute) and func.attr == "save" and getattr(func.value, "id", "") == "torch":
        return "torch.save"
    if isinstance(func, ast.Name) and func.id == "open":
        mode = node.args[1] if len(node.args) > 1 else next(
            (k.value for k in node.keywords if k.arg == "mode"), None
        )
        if isinstance(mode, ast.Constant) and isinstance(mode.value, str) and set(mode.value) & set("wax"):
            return "open"
    if isinstance(func, ast.Attribute) and func.attr == "open":  # Path.open("w")
        mode = node.args[0] if node.args else None
        if isinstance(mode, ast.Constant) and isinstance(mode.value, str) and set(mode.value) & set("wax"):
            return "open"
    return None


def _target(node: ast.Call, name: str) -> ast.expr | None:
    """What the call writes to: the receiver of a method, else the first argument."""
    if name in ("write_text", "write_bytes") or (name == "open" and isinstance(node.func, ast.Attribute)):
        return node.func.value  # type: ignore[union-attr]
    if name == "torch.save":
        return node.args[1] if len(node.args) > 1 else None
    return node.args[0] if node.args else None


def _raw_writes() -> list[str]:
    found = []
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if not isinstance(node, ast.Call) or (name := _writes(node)) is None:
                    continue
                target = _target(node, name)
                if isinstance(target, ast.Name) and target.id in TEMPORARY:
                    continue
                if (relative, name) in ALLOWED:
                    continue
                found.append(f"{relative}:{node.lineno} {name}")
    return found


def test_no_raw_writes_in_the_packages() -> None:
    assert _raw_writes() == []


def test_the_scan_finds_raw_writes(tmp_path: Path) -> None:
    """The scan sees each kind of raw write (so an empty list above means something)."""
    source = (
        "import torch\nfrom pathlib import Path\n"
        "Path('a').write_text('x')\nopen('b', 'w')\nfig.savefig('c.png')\ntorch.save({}, 'd')\n"
        "Path('e').open('a')\nopen('f')\nwrite_atomic('g', lambda tmp: fig.savefig(tmp, format='png'))\n"
    )
    calls = [n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Call)]
    named = [(_writes(c), _target(c, _writes(c))) for c in calls if _writes(c)]
    raw = [w for w, target in named if not (isinstance(target, ast.Name) and target.id in TEMPORARY)]
    assert sorted(raw) == ["open", "open", "savefig", "torch.save", "write_text"]
