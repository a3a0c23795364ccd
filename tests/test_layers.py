"""Dependencies point one way: hearts_env <- agents <- evaluation <- training, benchmarks <- hearts_cli,
and the repository's regression tools (``tools/``, not installed) above the packages they measure.

Every import statement of every module (top level or inside a function) is read with ``ast``;
a package may import only the packages below it, and no module may import itself back through
others (an import circle says that something lives one floor too high: move it down).
"""

from __future__ import annotations

import ast
import re
from functools import cache
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
    "tools": {"hearts_env", "agents", "evaluation", "training", "benchmarks"},
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


RAY_MODULES = {"hearts_env/parallel.py", "evaluation/ray_pool.py"}
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


def _modules() -> dict[str, Path]:
    """Every module of the packages by its dotted name (a package by its ``__init__``)."""
    found = {}
    for package in ALLOWED:
        for path in (ROOT / package).rglob("*.py"):
            parts = path.relative_to(ROOT).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_nodes(node: ast.AST, type_imports: bool) -> list[ast.Import | ast.ImportFrom]:
    """The import statements under ``node`` at any depth (functions included); those under
    ``if TYPE_CHECKING:`` only when ``type_imports`` (they never run)."""
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return [node]
    if isinstance(node, ast.If) and _is_type_checking(node.test) and not type_imports:
        return [n for child in node.orelse for n in _import_nodes(child, type_imports)]
    return [n for child in ast.iter_child_nodes(node) for n in _import_nodes(child, type_imports)]


@cache
def import_graph(type_imports: bool = False) -> dict[str, set[str]]:
    """The project modules each project module imports. ``from a.b import c`` imports the module
    ``a.b.c`` when there is one, else ``a.b``; relative imports are resolved. The packages above
    an imported module (whose ``__init__`` Python runs first) are left out: counting them would
    join every module to its package's ``__init__``. Read once a session (the tests only read it)."""
    modules = _modules()
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        edges = set()
        for node in _import_nodes(ast.parse(path.read_text()), type_imports):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join([*anchor, *([base] if base else [])])
                targets = [f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                           for alias in node.names]  # fmt: skip
            for target in targets:
                while target and target not in modules:  # ``import a.b.c`` of a name c in a.b
                    target = target.rpartition(".")[0]
                if target and target != name:
                    edges.add(target)
        graph[name] = edges
    return graph


def import_groups(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import one another, each sorted (the strongly connected
    components of more than one module: Tarjan's algorithm)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in sorted(graph[module]):
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = [stack.pop()]
            while group[-1] != module:
                group.append(stack.pop())
            if len(group) > 1:
                groups.append(sorted(group))

    for module in sorted(graph):
        if module not in index:
            visit(module)
    return sorted(groups)


def circle(graph: dict[str, set[str]], group: list[str]) -> list[str]:
    """The shortest circle ``[a, b, ..., a]`` from a group's first module back to itself."""
    start, members = group[0], set(group)
    came_from: dict[str, str] = {}
    frontier = [start]
    while frontier:
        following = []
        for module in frontier:
            for other in sorted(graph[module] & members):
                if other == start:
                    path = [module]
                    while path[-1] != start:
                        path.append(came_from[path[-1]])
                    return [*reversed(path), start]
                if other not in came_from:
                    came_from[other] = module
                    following.append(other)
        frontier = following
    raise AssertionError(f"no circle through {group}")


def test_the_import_graph_sees_every_kind_of_import() -> None:
    graph, with_types = import_graph(), import_graph(type_imports=True)
    assert {"hearts_env.core.engine", "hearts_env.core.rules"} <= graph["hearts_env.table"]  # top level
    assert "training.ray_rollout" in graph["training.ppo"]  # inside a function
    assert "hearts_env.table" in with_types["hearts_env.render"] - graph["hearts_env.render"]  # types only
    assert {"hearts_env.core.formats", "hearts_env.presets"} <= graph["agents.base"]  # another package


@pytest.mark.parametrize("type_imports", [False, True], ids=["run", "with_type_imports"])
def test_no_module_imports_itself_back(type_imports: bool) -> None:
    """No import circle among the project's modules: the imports that run (top level and inside
    functions), and the type-only imports too (a type circle says the same thing)."""
    graph = import_graph(type_imports)
    groups = import_groups(graph)
    lines = [" -> ".join(circle(graph, group)) + (f"  (group: {', '.join(group)})" if len(group) > 2 else "")
             for group in groups]  # fmt: skip
    assert not groups, "import circles (move what they share one floor down):\n" + "\n".join(lines)


CORE = "hearts_env.core"
"""The core every family is built on: it knows no family, no registry and no API above it."""
GAMES = "hearts_env.games"
"""The family registry; each package under it is one family's folder."""


def _within(module: str, package: str) -> bool:
    return module == package or module.startswith(package + ".")


def core_reaches(graph: dict[str, set[str]]) -> list[str]:
    """``"module -> imported"`` for each import of a core module outside the core."""
    return sorted(f"{name} -> {target}"
                  for name, targets in graph.items() if _within(name, CORE)
                  for target in targets if not _within(target, CORE))  # fmt: skip


def family_reaches(graph: dict[str, set[str]]) -> list[str]:
    """``"module -> imported"`` for each import of a family's module (``hearts_env.games.<family>``
    and below) outside the core and its own folder: another family, the registry, the API."""
    found = []
    for name, targets in graph.items():
        parts = name.split(".")
        if len(parts) < 3 or not _within(name, GAMES):
            continue
        own = ".".join(parts[:3])
        found += [f"{name} -> {target}" for target in targets
                  if not (_within(target, CORE) or _within(target, own))]  # fmt: skip
    return sorted(found)


BAD_GRAPH = {
    "hearts_env.core.texts": {"hearts_env.core.cards", "hearts_env.games.smear.engine"},
    "hearts_env.core.rules": {"hearts_env.core.cards", "hearts_env.presets"},
    "hearts_env.games": {"hearts_env.core.family", "hearts_env.games.hearts", "hearts_env.presets"},
    "hearts_env.games.hearts": {"hearts_env.games.hearts.family"},
    "hearts_env.games.hearts.family": {"hearts_env.core.family", "hearts_env.games.hearts.worlds"},
    "hearts_env.games.hearts.worlds": {"hearts_env.core.sampler", "hearts_env.games.hearts.positions"},
    "hearts_env.games.smear.worlds": {
        "hearts_env.core.sampler", "hearts_env.games.smear.positions", "hearts_env.games.hearts.worlds",
        "hearts_env.games", "hearts_env.table",
    },
    "hearts_env.table": {"hearts_env.games", "hearts_env.core.engine"},
}  # fmt: skip
"""An import graph that breaks both rules: a core module importing a family and the API, a
family importing another family, the registry and the API (the registry and the API may import
anything below them)."""


@pytest.mark.parametrize("type_imports", [False, True], ids=["run", "with_type_imports"])
def test_the_core_imports_only_the_core(type_imports: bool) -> None:
    """``hearts_env.core`` knows no family, no registry and no API: what a family needs from the
    core is passed in or read from the family's record, never imported from above (type-only
    imports included: a type from a family says the core knows that family)."""
    assert core_reaches(BAD_GRAPH) == [
        "hearts_env.core.rules -> hearts_env.presets",
        "hearts_env.core.texts -> hearts_env.games.smear.engine",
    ]
    found = core_reaches(import_graph(type_imports))
    assert not found, (
        "hearts_env.core imports modules above it (move the family's part to its folder under "
        "hearts_env/games/, or what both need down into hearts_env/core/):\n" + "\n".join(found)
    )


@pytest.mark.parametrize("type_imports", [False, True], ids=["run", "with_type_imports"])
def test_a_family_imports_only_the_core_and_its_own_folder(type_imports: bool) -> None:
    """Each family's folder (``hearts_env/games/<family>/``) imports only ``hearts_env.core`` and
    its own modules: not another family, not the registry, not the API modules (``table``,
    ``env``, ``presets``...), so a family is one folder plus one line in the registry."""
    assert family_reaches(BAD_GRAPH) == [
        "hearts_env.games.smear.worlds -> hearts_env.games",
        "hearts_env.games.smear.worlds -> hearts_env.games.hearts.worlds",
        "hearts_env.games.smear.worlds -> hearts_env.table",
    ]
    graph = import_graph(type_imports)
    families = {name.split(".")[2] for name in graph if _within(name, GAMES) and name != GAMES}
    assert {"hearts", "smear"} <= families, f"no family folders found under hearts_env/games/: {families}"
    found = family_reaches(graph)
    assert not found, (
        "family modules import outside hearts_env.core and their own folder (move what is shared "
        "down into hearts_env/core/, or let the registry pass it in):\n" + "\n".join(found)
    )


FAMILY_REGISTRY = ("hearts_env/games/",)
"""Where a family name may be compared: the family registry (:mod:`hearts_env.games`: its
dispatchers, and each family's folder with its record and options, which carry what the family
decides). The rules compare none: each family's options record checks its own options. A preset
named ``hearts`` is not a family (``preset != "hearts"``)."""
FAMILY_COMPARISON = re.compile(
    "|".join(
        (
            r"\bgame\s*(==|!=)",  # rules.game == ...
            r"(==|!=)\s*[A-Za-z_.]*\bgame\b",  # ... == rules.game
            r"""(?<!preset )(==|!=)\s*["'](hearts|smear)["']""",  # ... == "smear"
            r"""["'](hearts|smear)["']\s*(==|!=)""",  # "smear" == ...
        )
    )
)


def family_comparisons(text: str) -> list[int]:
    """The numbers of the lines of ``text`` that compare a family name."""
    return [number for number, line in enumerate(text.splitlines(), 1) if FAMILY_COMPARISON.search(line)]


def test_family_names_are_compared_in_the_family_registry_only() -> None:
    """``rules.game == "smear"`` belongs in :mod:`hearts_env.games` (one record per family, whose
    fields say what the family decides: ``record.positions``, ``record.rollouts``...); no other
    module compares family names."""
    bad = 'if rules.game == "smear":\nsmear = "smear" != game\nif preset != "hearts":\nrules.games'
    assert family_comparisons(bad) == [1, 2]
    found = [f"{name}:{number}"
             for package in ALLOWED
             for module in sorted((ROOT / package).rglob("*.py"))
             if not (name := str(module.relative_to(ROOT))).startswith(FAMILY_REGISTRY)
             for number in family_comparisons(module.read_text())]  # fmt: skip
    assert not found, (
        "modules compare family names outside hearts_env/games/ (the family registry): ask the "
        "family's record (hearts_env.games.family(rules)) for what the branch decides, adding a "
        "field to hearts_env.core.family.Family where none says it:\n" + "\n".join(found)
    )


AGENT_PATH = re.compile(r"(?<![\w.])agents(\.[A-Za-z_]|:[A-Za-z_])")
"""A path into the agents package (``agents.simple``, ``agents.Agent``, ``"agents:Name"``);
``self.agents`` (PettingZoo's live agents) and ``hearts_env.agents`` (the entry-point group
through which the engine finds agents by name) are not."""


def agent_paths(text: str) -> list[int]:
    """The numbers of the lines of ``text`` that name a path into the agents package."""
    return [number for number, line in enumerate(text.splitlines(), 1) if AGENT_PATH.search(line)]


def test_the_engine_names_no_agent() -> None:
    """The engine knows no consumer: no module of ``hearts_env`` names an agent's module or
    class, in code, strings or docstrings (an agent there is anything with ``act``; agents by
    name come through the entry-point group ``hearts_env.agents``)."""
    bad = 'x = "agents.simple:RandomAgent"\nself.agents = []\n"""the ``agents.Agent`` protocol"""'
    assert agent_paths(bad) == [1, 3]
    found = [f"{module.relative_to(ROOT)}:{number}"
             for module in sorted((ROOT / "hearts_env").rglob("*.py"))
             for number in agent_paths(module.read_text())]  # fmt: skip
    assert not found, f"hearts_env names the agents package at {', '.join(found)}: say 'an agent' (with act)"


CONSUMERS = ("agents", "evaluation", "training", "hearts_cli", "benchmarks")
"""The packages above the engine: they use a table through its public batch API."""
INTERNALS = ("state", "engine")
"""A :class:`~hearts_env.table.Table`'s internals: its state record and its engine."""


def internal_reads(source: str) -> list[int]:
    """The lines of ``source`` that read a ``.state`` or ``.engine`` attribute: a table's
    internals. An object's own ``self.state`` and a numpy generator's ``bit_generator.state``
    are not a table's."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if not (isinstance(node, ast.Attribute) and node.attr in INTERNALS):
            continue
        owner = node.value
        own = isinstance(owner, ast.Name) and owner.id == "self" and node.attr == "state"
        numpy = isinstance(owner, ast.Attribute) and owner.attr == "bit_generator"
        if not (own or numpy):
            lines.append(node.lineno)
    return sorted(lines)


def test_consumers_read_a_table_through_its_public_api() -> None:
    """``table.state`` and ``table.engine`` are the engine's own: the packages above it read
    the table's views and methods (``current_player``, ``num_actions``, ``state_dict()`` …),
    so the engine's records can change without them."""
    bad = "a = table.state.current\nb = t.engine.num_actions\nc = rng.bit_generator.state\nself.state = a"
    assert internal_reads(bad) == [1, 2]
    found = [f"{module.relative_to(ROOT)}:{number}"
             for package in CONSUMERS for module in sorted((ROOT / package).rglob("*.py"))
             for number in internal_reads(module.read_text())]  # fmt: skip
    assert not found, f"a table's state or engine is read outside hearts_env at {', '.join(found)}"


CODE_PATH = re.compile(
    r"(?<![\w./])((?:hearts_env|agents|evaluation|training|hearts_cli|benchmarks)(?:\.\w+)*):([A-Za-z_]\w*)"
)
"""``"package.module:Name"``: a project module and a name in it, written in a string."""
CODE_PATHS_ALLOWED = {
    "agents/specs.py": "the built-in agents' table of specs, until the agents find theirs by import",
}
"""Modules whose strings may name code by ``"module:Name"`` (module -> why). Agent specs a user
types (help texts, docs) name other packages' modules, not the project's."""


def code_paths(source: str) -> list[str]:
    """The ``"module:Name"`` strings of ``source`` (its string constants, docstrings included)
    whose module is one of the project's."""
    modules = _modules()
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            found += [m.group(0) for m in CODE_PATH.finditer(node.value) if m.group(1) in modules]
    return found


def test_no_string_names_code() -> None:
    """Code is named by import, not by a ``"module:Name"`` string imported on use (an import
    circle hidden from the import graph: move what both sides need one floor down)."""
    assert code_paths('RENDERER = "hearts_env.render:render_text"') == ["hearts_env.render:render_text"]
    assert not code_paths('SPEC = "my_package.agents:MyAgent"')
    found = {}
    for package in ALLOWED:
        for module in sorted((ROOT / package).rglob("*.py")):
            name = module.relative_to(ROOT).as_posix()
            paths = code_paths(module.read_text())
            if paths and name not in CODE_PATHS_ALLOWED:
                found[name] = paths
    assert not found, f"strings naming code by 'module:Name' (import the object instead): {found}"


RULES_OWNERS = ("rules", "r")
"""The names a :class:`~hearts_env.core.rules.Rules` goes by (``rules: Rules``, ``r: Rules``);
``<anything>.rules`` and ``<anything>.options`` (the family's record) are rules too."""
FAMILY_FOLDERS = ("hearts_env/games/",)
"""Where a family's options may be read: its own folder (and the registry beside them)."""


def family_option_names() -> set[str]:
    """Every registered family's own options and facts: its options record's fields and the
    names it adds to :class:`~hearts_env.core.rules.Options` (the facts every family has, such as
    ``pays_chips``, are the base's and read anywhere)."""
    from dataclasses import fields

    from hearts_env.core.rules import Options
    from hearts_env.games import FAMILIES

    names = set()
    for record in FAMILIES.values():
        names |= {f.name for f in fields(record.options)} | set(dir(record.options))
    return {name for name in names if not name.startswith("_") and not hasattr(Options, name)}


def _is_rules(node: ast.expr) -> bool:
    if isinstance(node, ast.Name):
        return node.id in RULES_OWNERS
    return isinstance(node, ast.Attribute) and node.attr in ("rules", "options")


def option_reads(source: str, names: set[str]) -> list[int]:
    """The lines of ``source`` that read one of ``names`` from a rules object: ``rules.name``,
    ``self.rules.name``, ``rules.options.name``, ``getattr(rules, "name")``."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Attribute) and node.attr in names and _is_rules(node.value):
            lines.append(node.lineno)
        elif (
            isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "getattr"
            and len(node.args) >= 2 and _is_rules(node.args[0])
            and isinstance(node.args[1], ast.Constant) and node.args[1].value in names
        ):  # fmt: skip
            lines.append(node.lineno)
    return sorted(lines)


def test_the_api_reads_no_family_option() -> None:
    """The modules of ``hearts_env`` outside the families' folders (the API over the registry,
    the core, the rules in words) read no family's own option or fact from the rules: what a
    family decides comes from its record (``family(rules).deal_outcome`` …) or from a fact every
    family has (``rules.pays_chips``, ``rules.passes`` …). Agents and screens written for one
    family may read its options; the engine's generic modules may not."""
    names = family_option_names()
    assert {"pass_count", "categories", "card_points", "penalty_total"} <= names
    assert not names & {"pays_chips", "passes", "hand_size", "num_players", "teams"}
    bad = (
        "n = rules.pass_count\nm = self.table.rules.categories\nk = r.options.jick\n"
        "v = getattr(rules, 'moon')\nok = rules.pays_chips\nfine = preset.card_points"
    )
    assert option_reads(bad, names) == [1, 2, 3, 4]
    found = [f"{name}:{number}"
             for module in sorted((ROOT / "hearts_env").rglob("*.py"))
             if not (name := module.relative_to(ROOT).as_posix()).startswith(FAMILY_FOLDERS)
             for number in option_reads(module.read_text(), names)]  # fmt: skip
    assert not found, (
        "hearts_env reads a family's own option outside hearts_env/games/: ask the family's record "
        "(hearts_env.games.family(rules)), adding a field to hearts_env.core.family.Family, or a "
        "fact every family has (an Options method):\n" + "\n".join(found)
    )


GENERIC_PRESET_MODULES = ("hearts_env/presets.py", "hearts_env/core/presets.py")
"""``make_rules`` and the :class:`~hearts_env.core.presets.Preset` record: generic over the
families, which give their options to a preset as data (``Preset.options``, ``per_players``)."""


def option_names_in_code(source: str, names: set[str]) -> list[int]:
    """The lines of ``source`` whose code names one of ``names``: a string that is the name, an
    attribute, a variable or field, a keyword or a parameter of that name (prose is not code)."""
    lines = []
    for node in ast.walk(ast.parse(source)):
        named = (
            (isinstance(node, ast.Constant) and node.value in names)
            or (isinstance(node, ast.Attribute) and node.attr in names)
            or (isinstance(node, ast.Name) and node.id in names)
            or (isinstance(node, (ast.keyword, ast.arg)) and node.arg in names)
        )
        if named:
            lines.append(node.lineno)
    return sorted(set(lines))


def test_make_rules_names_no_family_option() -> None:
    """A family's options (card values, pass cycles …) are the family's presets' data and its
    options record's forms (``Options.complete``): ``make_rules`` and ``Preset`` name none."""
    names = family_option_names()
    bad = (
        'if "card_points" in record.names():\n    x = spec.pass_directions\n'
        "card_points: dict = {}\nf(categories=1)\n'''the card_points of a preset'''"
    )
    assert option_names_in_code(bad, names) == [1, 2, 3, 4]
    found = [f"{module}:{number}"
             for module in GENERIC_PRESET_MODULES
             for number in option_names_in_code((ROOT / module).read_text(), names)]  # fmt: skip
    assert not found, (
        "make_rules or Preset names a family's option (give it to the family's presets as data, or "
        "to its options record's complete()):\n" + "\n".join(found)
    )
