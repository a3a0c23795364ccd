"""Sphinx configuration of the hearts-env documentation site (``make docs``).

The pages are the Markdown files of this folder (MyST); the API reference is autodoc over the
docstrings, which are reStructuredText. Links from a page to a repository file outside
``docs/`` (``../results/README.md``, ``../hearts_env/observation.py``) become links to that file
on GitHub (``_ext/repo_links.py``); links between pages and to their headings stay internal and
are checked by the build (warnings are errors) and by ``tests/integration/test_docs_site.py``.
"""

from __future__ import annotations

import sys
from pathlib import Path

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent
sys.path.insert(0, str(ROOT))  # the packages documented, from this checkout
sys.path.insert(0, str(DOCS / "_ext"))

import hearts_env  # noqa: E402

project = "hearts-env"
author = "the hearts-env authors"
copyright = "the hearts-env authors, Apache-2.0"  # noqa: A001
release = version = hearts_env.__version__

extensions = [
    "myst_parser",
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "repo_links",
]
source_suffix = {".md": "markdown"}
exclude_patterns = ["_build", "_ext", "Thumbs.db", ".DS_Store"]
root_doc = "index"

# MyST: heading anchors for `page.md#heading` links, down to ###.
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence", "deflist"]

# The repository on GitHub, where links to files outside docs/ point (_ext/repo_links.py); the
# same address as pyproject.toml's [project.urls] (tests/test_docs_api.py checks they agree).
repo_url = "https://github.com/hearts-env/hearts-env"
repo_branch = "main"

# autodoc: a package's public names are its __all__; signatures keep their type hints.
autodoc_default_options = {"members": True, "member-order": "bysource"}
autodoc_typehints = "signature"
# The docs' venv has neither torch nor Ray: the modules that import them (training.ppo, the RLlib
# integration) are documented from their docstrings with those two imported as stand-ins.
autodoc_mock_imports = ["torch", "ray"]
autodoc_class_signature = "mixed"
napoleon_google_docstring = True
napoleon_numpy_docstring = False

html_theme = "furo"
html_title = f"hearts-env {release}"
html_static_path = ["_static"]
html_theme_options = {
    "source_repository": repo_url + "/",
    "source_branch": repo_branch,
    "source_directory": "docs/",
}
