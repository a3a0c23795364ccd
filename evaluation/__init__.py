"""Evaluation: duplicate-deal tournaments between agents (:mod:`evaluation.duplicate`, which runs
them; :mod:`evaluation.seating`, :mod:`evaluation.record`, :mod:`evaluation.report` and
:mod:`evaluation.progress`, their seating, resumable record, report and progress bar) and the
checked values every configuration and command-line flag uses (:mod:`evaluation.flags`).

Dependencies point one way: ``hearts_env`` <- ``agents`` <- ``evaluation`` <- ``training``,
``benchmarks`` <- ``hearts_cli``.

Importing this package first checks that ``agents`` is hearts-env's: a researcher's own
``agents/`` folder (or ``agents.py``) in the working directory comes first on ``sys.path`` and
hides it, and Python would only say that a name cannot be imported (docs/your-agent.md).
"""

import importlib.util
from pathlib import Path


def _require_our_agents() -> None:
    """Refuse, in one line naming where it was found, a module ``agents`` that is not the package
    installed beside this one."""
    ours = Path(__file__).resolve().parent.parent / "agents"
    spec = importlib.util.find_spec("agents")
    if spec is None:  # not installed at all: the import that needs it says so
        return
    locations = list(spec.submodule_search_locations or [])
    found = spec.origin if spec.has_location and spec.origin else (locations[0] if locations else "?")
    if Path(found).resolve() not in (ours / "__init__.py", ours):
        raise ImportError(
            f"the module 'agents' found at {found} is not hearts-env's ({ours}): a folder or file named "
            "agents in the working directory (or earlier on sys.path) hides it; rename yours, or run "
            "from another directory",
            name="agents",
        )


_require_our_agents()
