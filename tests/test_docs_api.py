"""Every name of the packages that the docs use in code is in the API reference, and the
repository address of the docs site is the one ``pyproject.toml`` declares.

The names are the dotted ``hearts_env.X``, ``agents.X``, ``evaluation.X`` and ``training.X`` of the
code spans and fenced blocks of ``docs/*.md`` and ``README.md`` (``agents.make``, ``from hearts_env.core.rules
import Rules``). Each must be documented by a directive of an API page (``docs/api/*.md``): named
by it (``.. autofunction:: agents.make``, a ``:members:`` entry, a member of a documented class),
or the same class, function, module or object under another name (``hearts_env.core.rules.Rules``
is ``hearts_env.Rules``). No Sphinx here: the directives are read as text, the names imported.
"""

from __future__ import annotations

import importlib
import inspect
import re
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
API_PAGES = sorted((DOCS / "api").glob("*.md"))
PACKAGES = ("hearts_env", "agents", "evaluation", "training")
NOT_NAMES = {"hearts_env.agents", "agents.py"}
"""Dotted words of the docs that are not Python names: the entry-point group ``hearts_env.agents``
and the file name ``agents.py``."""

NAME = re.compile(rf"(?<![\w./-])((?:{'|'.join(PACKAGES)})(?:\.[A-Za-z_]\w*)+)")
FENCE = re.compile(r"(?ms)^```[^\n]*\n(.*?)^```")
IMPORT = re.compile(rf"^\s*from ((?:{'|'.join(PACKAGES)})[\w.]*) import (\([^)]*\)|[^\n#]+)", re.MULTILINE)
RST = re.compile(r"(?ms)^```\{eval-rst\}\n(.*?)^```")
DIRECTIVE = re.compile(r"^\s*\.\. (?:py:)?(\w+)::\s*(\S+)\s*$")
OPTION = re.compile(r"^\s+:([\w-]+):\s*(.*)$")
DOCUMENTING = {"automodule", "autoclass", "autofunction", "autodata", "autoattribute", "automethod",
               "autoexception", "module", "class", "function", "data", "attribute", "exception"}  # fmt: skip
WITH_MEMBERS = {"automodule", "autoclass", "autoexception"}


def code_names(markdown: str) -> set[str]:
    """The package names used in the code of a Markdown text: its fenced blocks and code spans, with
    the names imported from a module (``from agents.base import best_legal``: ``agents.base.best_legal``)."""
    blocks = FENCE.findall(markdown)
    spans = re.findall(r"`([^`\n]+)`", FENCE.sub("", markdown))
    names = {name for code in blocks + spans for name in NAME.findall(code)}
    for code in blocks + spans:
        for module, imported in IMPORT.findall(code):
            imported = [name.split()[0] for name in imported.strip("()").split(",") if name.strip()]
            names |= {f"{module}.{name}" for name in imported}
    return names - NOT_NAMES


def documented(page: str) -> tuple[set[str], set[str]]:
    """The names an API page's directives document, and those of them whose members are documented
    too (a class or module with ``:members:`` and no list, which autodoc fills from the object)."""
    names, open_members = set(), set()
    module = None  # the current module: ``.. data:: PRESETS`` under ``.. currentmodule:: hearts_env``
    lines = [line for block in RST.findall(page) for line in block.splitlines()]
    for number, line in enumerate(lines):
        found = DIRECTIVE.match(line)
        if not found:
            continue
        kind, target = found.groups()
        if kind in ("currentmodule", "module", "automodule"):
            module = target
        if kind not in DOCUMENTING:
            continue
        name = target if "." in target or kind in ("module", "automodule") else f"{module}.{target}"
        names.add(name)
        options = {}
        for option in lines[number + 1 :]:
            if not (matched := OPTION.match(option)):
                break
            options[matched.group(1)] = matched.group(2)
        if kind not in WITH_MEMBERS or "no-members" in options:
            continue
        members = [member.strip() for member in options.get("members", "").split(",") if member.strip()]
        names.update(f"{name}.{member}" for member in members)
        if not members:
            open_members.add(name)
    return names, open_members


def resolve(name: str) -> Any:
    """The object ``name`` names: the longest importable module, then attributes; a ``LookupError``
    naming what is missing."""
    parts = name.split(".")
    for split in range(len(parts), 0, -1):
        try:
            found = importlib.import_module(".".join(parts[:split]))
        except ImportError:
            continue
        for attribute in parts[split:]:
            if not hasattr(found, attribute):
                raise LookupError(f"{'.'.join(parts[:split])} has no {'.'.join(parts[split:])}")
            found = getattr(found, attribute)
        return found
    raise LookupError(f"no module {parts[0]}")


def identity(value: Any) -> int | None:
    """What makes two names name one thing: the object itself for a module, class, function or
    container; None for a plain value (two equal strings or numbers are not one name)."""
    if isinstance(value, (str, bytes, int, float, bool, type(None))):
        return None
    return id(inspect.unwrap(value) if callable(value) else value)


def undocumented(used: set[str], pages: list[str]) -> list[str]:
    """The names of ``used`` that no page of ``pages`` documents, each with why."""
    names, open_members = set(), set()
    for page in pages:
        page_names, page_open = documented(page)
        names |= page_names
        open_members |= page_open
    for owner in sorted(open_members):  # a module documents its __all__, and their members in turn
        try:
            module = resolve(owner)
        except LookupError:
            continue
        if inspect.ismodule(module):
            exported = getattr(module, "__all__", [name for name in vars(module) if not name.startswith("_")])
            open_members.remove(owner)
            names |= {f"{owner}.{name}" for name in exported}
            open_members |= {f"{owner}.{name}" for name in exported}
    ids = set()
    for name in names:
        try:
            ids.add(identity(resolve(name)))
        except LookupError:
            continue  # a directive naming nothing fails the docs build itself
    ids.discard(None)
    missing = []
    for name in sorted(used):
        if name in names or any(name.startswith(owner + ".") for owner in open_members):
            continue
        try:
            value = resolve(name)
        except LookupError as error:
            missing.append(f"{name} (does not exist: {error})")
            continue
        if identity(value) not in ids:
            missing.append(f"{name} (no API page documents it)")
    return missing


def docs_names() -> dict[str, list[str]]:
    """Every package name used in the code of ``docs/*.md`` and ``README.md`` -> the pages using it."""
    used: dict[str, list[str]] = {}
    for path in [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]:
        if path.name != "api.md":
            for name in code_names(path.read_text(encoding="utf-8")):
                used.setdefault(name, []).append(path.name)
    return used


def test_every_name_the_docs_use_is_in_the_api_reference() -> None:
    used = docs_names()
    pages = [path.read_text(encoding="utf-8") for path in API_PAGES]
    missing = undocumented(set(used), pages)
    assert not missing, "names of docs/*.md and README.md missing from docs/api/*.md:\n" + "\n".join(
        f"{line}, used in {', '.join(used[line.split(' ')[0]])}" for line in missing
    )


def test_the_api_index_lists_every_api_page() -> None:
    index = (DOCS / "api.md").read_text(encoding="utf-8")
    toctree = re.search(r"(?ms)^```\{toctree\}\n(.*?)^```", index)
    assert toctree, "docs/api.md has no toctree of the API pages"
    entries = [line.strip() for line in toctree.group(1).splitlines() if line.strip() and line[0] != ":"]
    assert sorted(entries) == [f"api/{path.stem}" for path in API_PAGES]
    assert API_PAGES and len(entries) == len(set(entries))


def test_the_check_finds_a_missing_a_wrong_and_an_aliased_name() -> None:
    markdown = (
        "Call `agents.make(...)` or `agents.base.best_legal`; `hearts_env.no_such_thing` is gone.\n\n"
        "```python\nfrom hearts_env.core.rules import Rules\n"
        "from agents import (\n    Agent,\n    make as build,\n)\nhearts_env.presets.PRESETS\n```\n"
        "The group `hearts_env.agents`, a path docs/hearts_env.md.\n"
    )
    used = code_names(markdown)
    assert used == {
        "agents.make", "agents.base.best_legal", "hearts_env.no_such_thing", "hearts_env.core.rules",
        "hearts_env.core.rules.Rules", "agents.Agent", "hearts_env.presets.PRESETS",
    }  # fmt: skip
    page = (
        "```{eval-rst}\n.. automodule:: agents\n   :no-members:\n.. autofunction:: agents.make\n"
        ".. automodule:: hearts_env.core.rules\n   :no-members:\n.. currentmodule:: hearts_env\n"
        ".. data:: PRESETS\n   :type: dict\n```\n"
    )
    missing = undocumented(used, [page])
    expected = ["agents.Agent", "agents.base.best_legal", "hearts_env.core.rules.Rules"]
    assert [line.split(" ")[0] for line in missing] == [*expected, "hearts_env.no_such_thing"], missing
    assert "does not exist" in missing[3] and "no API page" in missing[0]
    page += "```{eval-rst}\n.. autoclass:: hearts_env.Rules\n.. automodule:: agents\n```\n"
    assert [line.split(" ")[0] for line in undocumented(used, [page])][:1] == ["agents.base.best_legal"]
    page += "```{eval-rst}\n.. automodule:: agents.base\n   :members: best_legal\n```\n"
    assert [line.split(" ")[0] for line in undocumented(used, [page])] == ["hearts_env.no_such_thing"]


@pytest.mark.parametrize("key", ["Homepage", "Documentation", "Repository", "Issues", "Changelog"])
def test_the_project_urls_are_the_docs_repository(key: str) -> None:
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    urls = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"].get("urls", {})
    conf = re.search(r'^repo_url = "([^"]+)"', (DOCS / "conf.py").read_text(encoding="utf-8"), re.MULTILINE)
    assert conf, "docs/conf.py sets no repo_url"
    assert key in urls, f"pyproject.toml's [project.urls] has no {key}"
    assert urls[key].rstrip("/").startswith(conf.group(1).rstrip("/")), (
        f"pyproject.toml's {key} = {urls[key]!r} is not under docs/conf.py's repo_url {conf.group(1)!r}"
    )
