"""Dependencies point one way: hearts_env <- agents <- evaluation <- training, benchmarks <- hearts_cli.

Every import statement of every module (top level or inside a function) is read with ``ast``;
a package may import only the packages below it.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ALLOWED = {
    "hearts_env": set(),
    "agents": {"hearts_env"},
    "evaluation": {"hearts_env", "agents"},
    "training": {"hearts_env", "agents", "evaluation"},
    "benchmarks": {"hearts_env", "agents", "evaluation"},
    "hearts_cli": {"hearts_env", "agents", "evaluation", "training", "benchmarks"},
}


def imported_packages(path: Path) -> set[str]:
    """The project packages a module imports."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names & set(ALLOWED)


@pytest.mark.parametrize("package", sorted(ALLOWED))
def test_a_package_imports_only_the_layers_below(package: str) -> None:
    modules = sorted((ROOT / package).rglob("*.py"))
    assert modules, f"no modules in {package}"
    for module in modules:
        wrong = imported_packages(module) - ALLOWED[package] - {package}
        assert not wrong, f"{module.relative_to(ROOT)} imports {sorted(wrong)}, above {package}"
