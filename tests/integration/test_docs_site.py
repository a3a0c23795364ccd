"""The built documentation site (``make docs``: docs/_build/html) has no broken internal link.

``make docs`` builds the site with warnings as errors and then runs this file in its own venv
(``HEARTS_ENV_INTEGRATION=docs``), where a missing site or a missing Sphinx is a failure. In the
main suite the site checks skip when the site has not been built.

Every ``href`` and ``src`` of every page that is relative must name a file of the site and, with a
``#fragment``, an ``id`` in that file; the API page must document every public name.
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
PAGES = [
    "index", "observation", "tournaments", "your-agent", "training", "rl-libraries", "single-agent",
    "smear-games", "ray", "throughput", "reliability", "architecture", "rules", "readings", "smear",
    "api", "changelog",
]  # fmt: skip
"""The pages of the site's table of contents (docs/index.md)."""
API_EXTRA = [
    "hearts_env.single_agent_env",
    "hearts_env.presets.Preset",
    "evaluation.duplicate.Tournament",
    "evaluation.duplicate.TournamentConfig",
    "evaluation.duplicate.format_report",
    "training.config.Args",
]
"""Documented objects the API page must hold besides the packages' ``__all__``."""


class Page(HTMLParser):
    """The ids and the links (``href``/``src``) of one HTML page."""

    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for key, value in attrs:
            if value is None:
                continue
            if key == "id" or (key == "name" and tag == "a"):
                self.ids.add(value)
            elif key in ("href", "src"):
                self.links.append(value)


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
    ids = parse(site / "api.html").ids
    public = [f"hearts_env.{name}" for name in hearts_env.__all__] + [
        f"agents.{name}" for name in agents.__all__
    ]
    missing = [name for name in public + API_EXTRA if name not in ids]
    assert not missing, f"not documented in api.html (docs/api.md; rebuild with make docs): {missing}"


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
