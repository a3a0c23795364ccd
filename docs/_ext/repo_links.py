"""A Sphinx extension: links from a page to repository files outside ``docs/`` go to GitHub.

A Markdown page links to a repository file as GitHub shows it, relative to the page
(``[the results](../results/README.md)``, ``[observation.py](../hearts_env/observation.py)``).
Inside the site such a file is not a page, so MyST would copy it as a download or warn; this
transform turns each such link to an existing file or folder of the repository into a link to it
on GitHub (``repo_url``/blob/``repo_branch``/PATH). Links between pages, to headings, and to
paths that do not exist are left to MyST, which checks them.
"""

from __future__ import annotations

from pathlib import Path

from docutils import nodes
from sphinx import addnodes
from sphinx.application import Sphinx
from sphinx.transforms import SphinxTransform


def repository_url(config, root: Path, target: Path, anchor: str | None) -> str:
    """The GitHub address of repository file or folder ``target`` (``#anchor`` kept)."""
    kind = "tree" if target.is_dir() else "blob"
    path = target.relative_to(root).as_posix()
    url = f"{config.repo_url.rstrip('/')}/{kind}/{config.repo_branch}/{path}"
    return url + (f"#{anchor}" if anchor else "")


class RepositoryLinks(SphinxTransform):
    """Rewrite MyST links to repository files outside the source folder as GitHub links."""

    default_priority = 100

    def apply(self, **kwargs) -> None:
        srcdir = Path(self.env.srcdir).resolve()
        root = srcdir.parent
        for node in list(self.document.findall(addnodes.download_reference)) + list(
            self.document.findall(addnodes.pending_xref)
        ):
            if node.get("reftype") != "myst":
                continue
            if node.get("refdomain") == "doc":  # a Markdown file: a page, or a file outside docs/
                if node["reftarget"] in self.env.found_docs:
                    continue
                base = Path(self.env.srcdir, node["reftarget"]).resolve()
                found = [base.with_name(base.name + s) for s in self.config.source_suffix]
                target = next((path for path in found if path.exists()), base)
                anchor = node.get("reftargetid")
            elif node.get("refdomain") in (None, ""):  # any other path
                path, _, anchor = str(node["reftarget"]).partition("#")
                if not path or "://" in path:
                    continue
                target = Path(self.env.relfn2path(path, self.env.docname)[1]).resolve()
            else:
                continue
            if target.is_relative_to(srcdir) or not target.is_relative_to(root) or not target.exists():
                continue
            url = repository_url(self.config, root, target, anchor or None)
            link = nodes.reference("", "", *[child.deepcopy() for child in node.children], refuri=url)
            link["classes"].append("repository-file")
            node.replace_self(link)


def setup(app: Sphinx) -> dict:
    """Register the ``repo_url`` and ``repo_branch`` settings and the transform."""
    app.add_config_value("repo_url", "", "env")
    app.add_config_value("repo_branch", "main", "env")
    app.add_transform(RepositoryLinks)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
