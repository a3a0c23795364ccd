"""The rules in words, written from the rules data itself, so the text cannot drift from the code.

:func:`describe` turns one validated :class:`~hearts_env.core.rules.Rules` into Markdown: a short
paragraph per topic, the topics being its family's (:mod:`~hearts_env.games.hearts.describe`,
:mod:`~hearts_env.games.smear.describe`, named by :data:`hearts_env.games.FAMILIES`).
:func:`describe_preset` adds what a preset of :data:`~hearts_env.presets.PRESETS` says beyond
one rules set: its description line, its player range, the differences between player counts,
and its readings and versions, each described by the topics it changes. Every fact comes from
:func:`~hearts_env.presets.make_rules` and the ``Rules`` fields and derived properties; the
sentences are this package's.

- :mod:`~hearts_env.core.prose`: the phrases every part shares (cards, lists, card values);
- :mod:`~hearts_env.core.topics`: what a family's description declares (topics, columns);
- :mod:`~hearts_env.games.hearts.describe`, :mod:`~hearts_env.games.smear.describe`: each family's topics and
  its columns of the table by player count;
- :mod:`~hearts_env.describe.sections`: :func:`topics` and :func:`describe` through the family
  record, a preset's section and the preset index;
- :mod:`~hearts_env.describe.options`: the table of rule options;
- :mod:`~hearts_env.describe.pages`: the generated blocks of ``docs/rules.md`` and the command.

``docs/rules.md`` is the shipped rules reference: its generated blocks (between
``<!-- begin ... -->`` and ``<!-- end ... -->`` markers) are this package's output, and the test
``tests/test_docs.py`` compares them. After changing a preset or a rule, regenerate them with::

    python -m hearts_env.describe --write docs/rules.md     # --check: exit 1 if out of date
    python -m hearts_env.describe black_maria                # one preset's text
"""

from hearts_env.describe.options import describe_options
from hearts_env.describe.pages import blocks, generated, main, regenerate
from hearts_env.describe.sections import describe, describe_preset, preset_index, topics

__all__ = [
    "blocks",
    "describe",
    "describe_options",
    "describe_preset",
    "generated",
    "main",
    "preset_index",
    "regenerate",
    "topics",
]
