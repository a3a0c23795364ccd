"""The built documentation site (``make docs``: docs/_build/html) has no broken internal link.

``make docs`` builds the site with warnings as errors and then runs this file in its own venv
(``HEARTS_ENV_INTEGRATION=docs``), where a missing site or a missing Sphinx is a failure. In the
main suite the site checks skip when the site has not been built.

Every ``href`` and ``src`` of every page that is relative must name a file of the site and, with a
``#fragment``, an ``id`` in that file; every ``docs/*.md`` page must be built under its own title
(not overwritten by a page Sphinx writes itself, as ``search.html`` once replaced ``docs/search.md``)
and be what its sidebar entry opens, the API reference's pages (``docs/api/*.md``) included; the API
pages together must document every public name.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

import agents
import hearts_env
from tests.integration import common

ROOT = common.ROOT
SITE = ROOT / "docs" / "_build" / "html"
IN_MAKE_DOCS = os.environ.get("HEARTS_ENV_INTEGRATION") == "docs"


def source_pages(docs: Path) -> list[Path]:
    """The Markdown pages of the site's source folder ``docs``: its own and its API reference's."""
    return sorted(docs.glob("*.md")) + sorted(docs.glob("api/*.md"))


PAGES = [path.relative_to(ROOT / "docs").with_suffix("").as_posix() for path in source_pages(ROOT / "docs")]
"""The pages of the site: every Markdown file of docs/ (each in docs/index.md's table of contents,
``tests/test_docs.py``) and of docs/api/ (in docs/api.md's, ``tests/test_docs_api.py``)."""
API_EXTRA = [
    "agents.base.best_legal",
    "hearts_env.single_agent_env",
    "hearts_env.presets.Preset",
    "evaluation.duplicate.Tournament",
    "evaluation.duplicate.TournamentConfig",
    "evaluation.duplicate.format_report",
    "training.config.Args",
]
"""Documented objects the API pages must hold besides the packages' ``__all__``."""


class Page(HTMLParser):
    """The ids and the links (``href``/``src``) of one HTML page, its title (the first ``<title>``:
    furo's icons have titles of their own) and its sidebar's page links (furo's ``sidebar-tree``)
    as ``(href, text)``."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.title: str | None = None
        self.sidebar: list[tuple[str, str]] = []
        self._in_title = False
        self._sidebar_depth = 0  # open <div>s inside the sidebar tree; 0: outside it
        self._sidebar_link: list[str] | None = None  # [href, text...] of the open sidebar <a>

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for key, value in attrs:
            if value is None:
                continue
            if key == "id" or (key == "name" and tag == "a"):
                self.ids.add(value)
            elif key in ("href", "src"):
                self.links.append(value)
        found = dict(attrs)
        if tag == "title" and self.title is None:
            self._in_title, self.title = True, ""
        elif tag == "div" and (self._sidebar_depth or "sidebar-tree" in (found.get("class") or "").split()):
            self._sidebar_depth += 1
        elif tag == "a" and self._sidebar_depth and found.get("href"):
            self._sidebar_link = [found["href"] or ""]

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False
        elif tag == "div" and self._sidebar_depth:
            self._sidebar_depth -= 1
        elif tag == "a" and self._sidebar_link is not None:
            href, *text = self._sidebar_link
            self.sidebar.append((href, " ".join("".join(text).split())))
            self._sidebar_link = None

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title = (self.title or "") + data
        if self._sidebar_link is not None:
            self._sidebar_link.append(data)


def parse(path: Path) -> Page:
    """``path`` parsed."""
    page = Page()
    page.feed(path.read_text(encoding="utf-8"))
    return page


def broken_links(site: Path) -> list[str]:
    """Every relative link of ``site``'s pages to a missing file or a missing id, as ``page: link``."""
    pages = {path: parse(path) for path in sorted(site.rglob("*.html"))}
    broken = []
    for path, page in pages.items():
        for link in page.links:
            parts = urlsplit(link)
            if parts.scheme or parts.netloc or link.startswith("//"):
                continue  # an absolute address: outside the site
            target = (path.parent / unquote(parts.path)).resolve() if parts.path else path
            if target.is_dir():
                target = target / "index.html"
            where = f"{path.relative_to(site)}: {link}"
            if not target.is_file():
                broken.append(f"{where} (no file {target})")
            elif parts.fragment and target.suffix == ".html":
                ids = pages[target].ids if target in pages else parse(target).ids
                if unquote(parts.fragment) not in ids:
                    broken.append(f"{where} (no id {parts.fragment!r} in {target.name})")
    return broken


def page_title(markdown: str) -> str:
    """The title of a page from its Markdown: its first ``# `` heading, as plain text."""
    heading = next((line[2:] for line in markdown.splitlines() if line.startswith("# ")), "")
    return " ".join(heading.replace("`", "").split())


def missing_pages(site: Path, docs: Path) -> list[str]:
    """Every page of ``docs`` (its ``*.md``) that ``site`` lacks, shows under another title, or
    that the index's sidebar does not open under its title, as ``page: what is wrong``."""
    problems = []
    index = parse(site / "index.html") if (site / "index.html").is_file() else Page()
    sidebar = dict(index.sidebar)
    for source in source_pages(docs):
        name = source.relative_to(docs).with_suffix("").as_posix()
        title, link = page_title(source.read_text(encoding="utf-8")), f"{name}.html"
        built = site / link
        if not built.is_file():
            problems.append(f"{name}: no {link} in the site")
            continue
        shown = " ".join((parse(built).title or "").split())
        if not shown.startswith(title):
            problems.append(f"{name}: {link} is titled {shown!r}, not {title!r} (overwritten?)")
        if name != "index" and sidebar.get(link) != title:
            problems.append(f"{name}: the sidebar's entry for {link} is {sidebar.get(link)!r}, not {title!r}")
    return problems


@pytest.fixture(scope="module")
def site() -> Path:
    if not (SITE / "index.html").is_file():
        if IN_MAKE_DOCS:
            pytest.fail(f"no built site at {SITE}: sphinx-build did not write it")
        pytest.skip("the documentation site is not built (make docs)")
    return SITE


def test_every_page_of_the_table_of_contents_is_built(site: Path) -> None:
    missing = [name for name in PAGES if not (site / f"{name}.html").is_file()]
    assert not missing, f"pages not built: {missing}"
    index = parse(site / "index.html")
    assert {f"{name}.html" for name in PAGES if name != "index"} <= set(index.links)


def test_every_docs_page_is_built_under_its_title_and_opened_by_the_sidebar(site: Path) -> None:
    problems = missing_pages(site, ROOT / "docs")
    assert not problems, "docs pages missing from the site:\n" + "\n".join(problems)


def test_the_page_check_finds_an_overwritten_a_missing_and_an_unlisted_page(tmp_path: Path) -> None:
    docs, site = tmp_path / "docs", tmp_path / "html"
    (docs / "api").mkdir(parents=True), (site / "api").mkdir(parents=True)
    pages = {"index": "Home", "search": "Positions", "gone": "Gone", "unlisted": "Unlisted", "kept": "Kept"}
    pages["api/part"] = "Part"
    for name, title in pages.items():
        (docs / f"{name}.md").write_text(f"# {title}\n\ntext\n", encoding="utf-8")
        (site / f"{name}.html").write_text(f"<title>{title} - Home 1.0</title><title>Menu</title>")
    (site / "gone.html").unlink()
    (site / "search.html").write_text("<title>Search - Home 1.0</title>", encoding="utf-8")  # Sphinx's
    entries = '<li><a href="search.html">Positions</a></li><li><div><a href="kept.html">Kept</a></div></li>'
    index = '<title>Home 1.0</title><div class="sidebar-tree"><ul>{}</ul></div><a href="{}.html">x</a>'
    (site / "index.html").write_text(index.format(entries, "unlisted"), encoding="utf-8")
    found = missing_pages(site, docs)
    assert [line.split(":")[0] for line in found] == ["gone", "search", "unlisted", "api/part"], found
    assert "'Search - Home 1.0', not 'Positions'" in found[1] and "is None, not 'Unlisted'" in found[2]
    assert "entry for api/part.html is None" in found[3]
    (site / "gone.html").write_text("<title>Gone - Home 1.0</title>", encoding="utf-8")
    (site / "search.html").write_text("<title>Positions - Home 1.0</title>", encoding="utf-8")
    entries += '<li><a href="gone.html">Gone</a></li><li><a href="unlisted.html">Unlisted</a></li>'
    entries += '<li><a href="api/part.html">Part</a></li>'
    (site / "index.html").write_text(index.format(entries, "gone"), encoding="utf-8")
    assert missing_pages(site, docs) == []


def test_every_internal_link_and_anchor_resolves(site: Path) -> None:
    broken = broken_links(site)
    assert not broken, f"{len(broken)} broken links, the first: " + "\n".join(broken[:20])


def test_a_headless_browser_opens_the_index(site: Path) -> None:
    """Where Chromium is installed (Debian's ``chromium``), the index loads and shows the contents."""
    browser = next(filter(None, map(shutil.which, ("chromium", "chromium-browser", "google-chrome"))), None)
    if browser is None:
        pytest.skip("no Chromium on this machine (apt-get install chromium)")
    command = [browser, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom"]
    done = subprocess.run(
        command + [(site / "index.html").as_uri()], capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr[-2000:]
    dom = done.stdout
    assert "<title>hearts-env" in dom and 'href="api.html"' in dom and 'href="rules.html"' in dom, dom[:2000]


def test_the_rules_page_has_its_heading_anchors(site: Path) -> None:
    page = parse(site / "rules.html")
    assert {"options", "hearts", "black_maria", "smear_partnership"} <= page.ids  # `rules.md#options`
    assert {"#black-maria", "#smear-partnership"} <= set(page.links)  # the preset index links to them


def test_the_api_page_documents_the_public_names(site: Path) -> None:
    ids = set().union(*(parse(path).ids for path in [site / "api.html", *sorted(site.glob("api/*.html"))]))
    public = [f"hearts_env.{name}" for name in hearts_env.__all__] + [
        f"agents.{name}" for name in agents.__all__
    ]
    missing = [name for name in public + API_EXTRA if name not in ids]
    assert not missing, f"not documented in api/*.html (docs/api/*.md; rebuild with make docs): {missing}"


def test_the_changelog_page_includes_the_changelog(site: Path) -> None:
    text = (site / "changelog.html").read_text(encoding="utf-8")
    version = hearts_env.__version__
    assert f"{version}" in text and version in (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")


def test_the_link_check_finds_a_broken_link_and_a_missing_anchor(tmp_path: Path) -> None:
    (tmp_path / "a.html").write_text('<a href="b.html#there">b</a> <a href="#here">a</a>', encoding="utf-8")
    (tmp_path / "b.html").write_text('<h1 id="somewhere">b</h1><img src="missing.png">', encoding="utf-8")
    found = broken_links(tmp_path)
    assert len(found) == 3 and any("'there'" in line for line in found), found
    (tmp_path / "a.html").write_text('<a id="here" href="b.html#somewhere">b</a>', encoding="utf-8")
    (tmp_path / "b.html").write_text(
        '<h1 id="somewhere"><a href="https://x.org/#y">x</a></h1>', encoding="utf-8"
    )
    assert broken_links(tmp_path) == []


def _build(source: Path) -> subprocess.CompletedProcess:
    """Build the Sphinx project in ``source`` with the site's link extension, warnings as errors."""
    command = [sys.executable, "-m", "sphinx", "-W", "-q", "-E", "-b", "html", str(source)]
    command.append(str(source / "_out"))
    return subprocess.run(command, capture_output=True, text=True, timeout=300)


def test_links_to_repository_files_go_to_github_and_broken_ones_fail_the_build(tmp_path: Path) -> None:
    common.require("sphinx")
    common.require("myst_parser")
    docs = tmp_path / "docs"
    docs.mkdir()
    (tmp_path / "results").mkdir()
    (tmp_path / "results" / "README.md").write_text("# Results\n", encoding="utf-8")
    (docs / "conf.py").write_text(
        textwrap.dedent(f"""
        import sys
        sys.path.insert(0, {str(ROOT / "docs" / "_ext")!r})
        extensions = ["myst_parser", "repo_links"]
        myst_heading_anchors = 3
        repo_url = "https://github.com/o/r"
        """),
        encoding="utf-8",
    )
    (docs / "index.md").write_text(
        "# Home\n\n```{toctree}\nother\n```\n\n[results](../results/README.md), "
        "[the folder](../results), [a heading](other.md#a-heading)\n",
        encoding="utf-8",
    )
    (docs / "other.md").write_text("# Other\n\n## A heading\n\ntext\n", encoding="utf-8")
    done = _build(docs)
    assert done.returncode == 0, done.stderr
    html = (docs / "_out" / "index.html").read_text(encoding="utf-8")
    assert 'href="https://github.com/o/r/blob/main/results/README.md"' in html
    assert 'href="https://github.com/o/r/tree/main/results"' in html
    assert 'href="other.html#a-heading"' in html
    for bad in ["[gone](../results/missing.md)", "[no heading](other.md#no-such-heading)"]:
        (docs / "index.md").write_text(f"# Home\n\n```{{toctree}}\nother\n```\n\n{bad}\n", encoding="utf-8")
        done = _build(docs)
        assert done.returncode != 0, f"{bad} built without a warning"
