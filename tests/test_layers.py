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


RAY_MODULES = {"evaluation/ray_pool.py", "training/ray_rollout.py"}
"""The modules that may import Ray (an optional extra), and only inside their functions."""
RAY_ELSEWHERE = {"hearts_env/integrations/rllib.py"}
"""Ray's other user among the packages (RLlib, an optional extra too)."""


def ray_imports(path: Path) -> tuple[bool, bool]:
    """(imports ``ray`` anywhere, imports it at the top level of the module)."""
    tree = ast.parse(path.read_text())

    def is_ray(node: ast.AST) -> bool:
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names = [node.module or ""]
        else:
            return False
        return any(name.split(".")[0] == "ray" for name in names)

    top = any(is_ray(node) for node in tree.body)
    return any(is_ray(node) for node in ast.walk(tree)), top


def test_only_the_ray_modules_import_ray_and_only_when_asked() -> None:
    importing, at_top = set(), set()
    for package in ALLOWED:
        for module in (ROOT / package).rglob("*.py"):
            anywhere, top = ray_imports(module)
            name = module.relative_to(ROOT).as_posix()
            if anywhere:
                importing.add(name)
            if top:
                at_top.add(name)
    assert importing <= RAY_MODULES | RAY_ELSEWHERE, sorted(importing - RAY_MODULES - RAY_ELSEWHERE)
    assert not at_top & RAY_MODULES, f"{sorted(at_top & RAY_MODULES)} import ray at the top (not installed)"
