"""``hearts-env --help`` and every command's ``--help`` read as plain text: no Sphinx markup.

Some help texts are made from docstrings (the training settings, :mod:`training.config`); they go
through :func:`evaluation.flags.help_text`, which turns reStructuredText roles and literals into
their words.
"""

from __future__ import annotations

import argparse
import re

import pytest

import hearts_cli
from evaluation.flags import help_text

MARKUP = re.compile(r":[\w:.-]+:`|``|`")
"""A role (``:data:`X```), a literal (````x````) or a single backquote."""


def commands(monkeypatch: pytest.MonkeyPatch) -> dict[str, argparse.ArgumentParser]:
    """Every ``hearts-env`` command's parser, as ``hearts_cli.main`` builds them."""
    built: list[argparse.ArgumentParser] = []
    monkeypatch.setattr(hearts_cli, "run_command", lambda parser, argv, run: built.append(parser) or 0)
    assert hearts_cli.main([]) == 0
    (action,) = [a for a in built[0]._actions if isinstance(a, argparse._SubParsersAction)]
    return dict(action.choices)


def test_every_command_is_walked(monkeypatch: pytest.MonkeyPatch) -> None:
    assert {"tournament", "train", "bench", "play", "rules"} <= set(commands(monkeypatch))


@pytest.mark.parametrize("name", ["", "tournament", "train", "bench", "play", "rules"])
def test_help_has_no_sphinx_markup(name: str, capsys: pytest.CaptureFixture) -> None:
    assert hearts_cli.main([name, "--help"] if name else ["--help"]) == 0
    out = capsys.readouterr().out
    assert "usage: hearts-env" in out and "--debug" in out
    found = [out[max(0, m.start() - 40) : m.end() + 40] for m in MARKUP.finditer(out)]
    assert not found, f"hearts-env {name} --help shows markup: {found}"


def test_no_command_s_help_has_markup(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every command, including any added after the list above."""
    for name, parser in commands(monkeypatch).items():
        text = parser.format_help()
        assert not MARKUP.search(text), (name, MARKUP.search(text))


def test_train_help_keeps_the_words_of_the_docstrings(capsys: pytest.CaptureFixture) -> None:
    assert hearts_cli.main(["train", "--help"]) == 0
    out = " ".join(capsys.readouterr().out.split())
    assert "(only RESUMABLE_CHANGES may differ)" in out
    assert "zero_sum (others' mean points minus one's own)" in out


@pytest.mark.parametrize(
    "doc, text",
    [
        (":data:`RESUMABLE_CHANGES` may differ", "RESUMABLE_CHANGES may differ"),
        ("see :func:`agents.family_defaults`", "see agents.family_defaults"),
        ("see :meth:`~training.config.Args.validate`", "see validate"),
        (":class:`the settings <training.config.Args>`", "the settings"),
        (":py:mod:`training.ppo`", "training.ppo"),
        ("``--hidden 256,256``, `x`\n   and more", "--hidden 256,256, x and more"),
        ("no markup: a:b `", "no markup: a:b `"),
    ],
)
def test_help_text_turns_roles_and_literals_into_words(doc: str, text: str) -> None:
    assert help_text(doc) == text
