"""Checked values for configurations and command-line flags, and one-line errors.

Every flag of every command line (the ``hearts-env`` command's, the training and benchmark
scripts') and every field of the training and tournament configurations goes through one of
these checks (:class:`Number`, :func:`comma_list`, :func:`option_arg`, :func:`agent_spec`), so
the command lines and the Python API refuse the same inputs with the same words.
:func:`run_command` turns a refused input into one line, ``<prog>: error: <what is wrong>``, and
exit status 2 (``--debug`` keeps the traceback); so it does a missing optional dependency
(:data:`EXTRAS`, :func:`missing_extra`), naming what to install, and a stop (:class:`Interrupted`).

What stays here is what evaluation and training use themselves: the checked values of their
configurations, building agents from specs, the command runner of their own entry points, the
signals held while a record is saved. The flags only the ``hearts-env`` command has (the table
it plays, Ray, each family's default agents, requiring an optional dependency) live with that
command.

Below :mod:`training` and :mod:`benchmarks`, above :mod:`agents`: it may be imported by both.
"""

from __future__ import annotations

import argparse
import contextlib
import math
import re
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import numpy as np

from agents import (
    FAMILY_DEFAULTS,
    Agent,
    from_spec,
    parse_option,
    parse_spec,
)
from hearts_env.core.rules import Rules

USER_ERRORS = (ValueError, TypeError, OSError)
"""Errors a command reports in one line (exit status 2) unless ``--debug`` is given (and an
``ImportError`` of a missing optional dependency, :func:`missing_extra`)."""

EXTRAS = {
    "torch": "training", "tensorboard": "training", "tqdm": "training", "matplotlib": "training",
    "open_spiel": "benchmarks", "pyspiel": "benchmarks", "ray": "ray",
}  # fmt: skip
"""Optional dependency (top-level module) -> the ``hearts-env`` extra that installs it."""


def install_command(extra: str) -> str:
    """The command that installs the ``hearts-env`` extra ``extra`` (``'pip install -e ".[ray]"
    in the hearts-env checkout'``): hearts-env is installed from its repository, not from a
    package index, so pip asked for the package by name finds nothing."""
    return f'pip install -e ".[{extra}]" in the hearts-env checkout'


# ---------------------------------------------------------------------- argument types
class Number:
    """A range-checked int or float: an argparse ``type=`` for text, and :meth:`check` for values
    given from Python, so both paths refuse the same inputs with the same words."""

    def __init__(
        self,
        kind: type,
        what: str,
        low: float | None = None,
        high: float | None = None,
        low_open: bool = False,
        finite: bool = True,
    ) -> None:
        self.kind, self.what, self.low, self.high = kind, what, low, high
        self.low_open, self.finite = low_open, finite
        self.__name__ = what  # argparse names a type by it

    def _in_range(self, value: float) -> bool:
        if math.isnan(value) or (self.finite and math.isinf(value)):
            return False
        if self.low is not None and (value <= self.low if self.low_open else value < self.low):
            return False
        return self.high is None or value <= self.high

    def __call__(self, text: str) -> Any:
        try:
            value = self.kind(text.strip())
        except ValueError:
            raise argparse.ArgumentTypeError(f"must be {self.what}, got {text!r}") from None
        if not self._in_range(value):
            raise argparse.ArgumentTypeError(f"must be {self.what}, got {text!r}")
        return value

    def check(self, name: str, value: Any) -> Any:
        """``value`` as a plain int / float; ``TypeError`` or ``ValueError`` naming ``name`` and it."""
        ok_type = (int, np.integer) if self.kind is int else (int, float, np.integer, np.floating)
        if isinstance(value, (bool, np.bool_)) or not isinstance(value, ok_type):
            raise TypeError(f"{name} must be {self.what}, got {type(value).__name__} {value!r}")
        if not self._in_range(value):
            raise ValueError(f"{name} must be {self.what}, got {value!r}")
        return self.kind(value)


positive_int = Number(int, "a positive integer", low=1)
non_negative_int = Number(int, "a non-negative integer", low=0)
positive_float = Number(float, "a positive number", low=0, low_open=True)
non_negative_float = Number(float, "a non-negative number", low=0)
fraction = Number(float, "a number from 0 to 1", low=0, high=1)
budget_minutes = Number(
    float, "a positive number of minutes (inf: no limit)", low=0, low_open=True, finite=False
)


def comma_list(item: Callable[[str], Any], what: str, allow_empty: bool = False) -> Callable[[str], tuple]:
    """An argparse ``type=`` for ``A,B,C``: a tuple of ``item(A)``, …. An empty item among others
    (``A,,B``, ``A,``) is refused; so is an empty list (``''``, ``,``) unless ``allow_empty``
    (then it is ``()``)."""

    def parse(text: str) -> tuple:
        parts = [part.strip() for part in text.split(",")]
        if not any(parts):
            if allow_empty:
                return ()
            raise argparse.ArgumentTypeError(f"needs at least one {what}, got {text!r}")
        if not all(parts):
            raise argparse.ArgumentTypeError(
                f"an empty {what} in {text!r} (item {parts.index('') + 1}): write {what}s between the commas"
            )
        return tuple(item(part) for part in parts)

    parse.__name__ = f"list of {what}"
    return parse


def agent_spec(text: str) -> str:
    """An argparse ``type=`` for one agent spec (``strategy``, ``ismcts:simulations=100``,
    ``path/to/my_agent.py:MyAgent:depth=3``, :mod:`agents.specs`): the class is loaded
    and its parameters checked, so a bad spec is refused before anything runs."""
    try:
        parse_spec(text)  # imports the agent's module: ppo needs torch
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None
    except ImportError as error:
        missing = missing_extra(error)
        if missing is None:
            raise
        raise argparse.ArgumentTypeError(missing) from None
    return text.strip()


def build_agent(spec: str, rules: Rules) -> Agent:
    """The agent of ``spec`` for ``rules`` (:func:`agents.from_spec`), built when a command starts
    so that an agent that cannot be built stops it in one line (:func:`run_command`, exit status
    2) before anything is played or written: a constructor that raises anything other than a
    ``ValueError``/``TypeError``/``OSError`` (which already say what is wrong) or a missing optional
    dependency raises :func:`unbuilt`'s ``ValueError`` naming the spec, the rules and the error."""
    try:
        return from_spec(spec, rules)
    except USER_ERRORS:
        raise
    except ImportError as error:
        if missing_extra(error) is not None:
            raise
        raise unbuilt(spec, rules, error) from error
    except Exception as error:  # noqa: BLE001 - whatever a user's constructor raises
        raise unbuilt(spec, rules, error) from error


def unbuilt(spec: str, rules: Rules, error: BaseException) -> ValueError:
    """The one-line error of agent ``spec`` failing to be built for ``rules`` with ``error`` (an
    error that already says so is kept as it is)."""
    head = f"agent {spec!r} could not be built for {rules.preset} with {rules.num_players} players: "
    if isinstance(error, ValueError) and str(error).startswith(head):
        return error
    kind = "" if isinstance(error, (ValueError, TypeError, ImportError)) else f"{type(error).__name__}: "
    return ValueError(head + kind + one_line(error))


def family_help(name: str) -> str:
    """``--help`` words for a setting that defaults to the game family's (a field of
    :class:`agents.FamilyDefaults`): ``the game family's: strategy,ducker for hearts; …``."""

    def text(value: str | tuple[str, ...]) -> str:
        return value if isinstance(value, str) else ",".join(value) or "''"

    values = "; ".join(f"{text(getattr(d, name))} for {game}" for game, d in FAMILY_DEFAULTS.items())
    return f"the game family's: {values}"


def option_arg(text: str) -> tuple[str, Any]:
    """An argparse ``type=`` for ``--option KEY=VALUE`` (:func:`agents.parse_option`)."""
    try:
        return parse_option(text)
    except ValueError as error:
        raise argparse.ArgumentTypeError(str(error)) from None


def add_option_flag(parser: argparse.ArgumentParser, example: str = "moon=new", **kwargs: Any) -> None:
    """The one ``--option KEY=VALUE`` flag (repeatable) of every command: a rule option over the
    preset, parsed by :func:`agents.parse_option` (``kwargs`` such as ``dest`` or ``help`` go to
    argparse)."""
    kwargs.setdefault("help", f"rule option over the preset (docs/rules.md), e.g. {example}; repeatable")
    parser.add_argument(
        "--option", action="append", type=option_arg, default=[], metavar="KEY=VALUE", **kwargs
    )


# ---------------------------------------------------------------------- parsers and errors
class ArgumentParser(argparse.ArgumentParser):
    """argparse with one-line errors: ``<prog>: error: <message>`` (the usage is under ``--help``)."""

    def error(self, message: str) -> None:  # type: ignore[override]
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


_ROLE = re.compile(r":[\w:.-]+:`(?:~?([^`<]*?)\s*<[^`>]*>|~?([^`]*))`")
_LITERAL = re.compile(r"``(.+?)``|`([^`]+)`")


def help_text(doc: str) -> str:
    """A docstring's reStructuredText as ``--help`` shows it: ``:data:`RESUMABLE_CHANGES``` ->
    ``RESUMABLE_CHANGES`` (``~a.b`` -> ``b``, ``text <target>`` -> ``text``), literals without
    their backquotes; whitespace runs as one space."""

    def role(match: re.Match) -> str:
        if match.group(1) is not None:
            return match.group(1)
        target = match.group(2)
        return target.rsplit(".", 1)[-1] if match.group(0).count("`~") else target

    text = _ROLE.sub(role, doc)
    text = _LITERAL.sub(lambda m: m.group(1) if m.group(1) is not None else m.group(2), text)
    return " ".join(text.split())


def add_debug(parser: argparse.ArgumentParser, top: bool = True) -> None:
    """``--debug``: show the traceback of an error instead of one line (``top=False``: a
    subcommand's copy of the flag, which leaves the top-level one's value alone)."""
    parser.add_argument(
        "--debug", action="store_true", default=False if top else argparse.SUPPRESS,
        help="show the full traceback of an error instead of one line",
    )  # fmt: skip


def missing_extra(error: BaseException) -> str | None:
    """If ``error`` comes from a missing optional dependency (:data:`EXTRAS`), what to tell the
    user (the error's own words, or which module to install); otherwise None."""
    cause: BaseException | None = error
    while cause is not None:
        name = getattr(cause, "name", None) if isinstance(cause, ModuleNotFoundError) else None
        root = (name or "").split(".")[0]
        if root in EXTRAS:
            if cause is error:  # Python's own "No module named ..."
                return f"{root} is not installed: {install_command(EXTRAS[root])}"
            return one_line(error)
        cause = cause.__cause__
    return None


def one_line(error: BaseException) -> str:
    """An error's message on one line."""
    return " ".join(str(error).split()) or type(error).__name__


class Interrupted(KeyboardInterrupt):
    """Ctrl-C (SIGINT) or ``kill`` (SIGTERM) while a command runs: a ``KeyboardInterrupt`` that
    knows its signal (:attr:`signum`) and, once a command has put its work away, what it kept
    (:attr:`kept`, e.g. "the record keeps 3 of 10 rounds; the same command resumes").
    :func:`run_command` prints it in one line and exits with ``128 + signum`` (130, 143)."""

    def __init__(self, signum: int = signal.SIGINT, kept: str = "") -> None:
        super().__init__(f"signal {signum}")
        self.signum = int(signum)
        self.kept = kept


def signal_of(stop: BaseException) -> int:
    """The signal that stopped a command (SIGINT for a plain ``KeyboardInterrupt``)."""
    return getattr(stop, "signum", int(signal.SIGINT))


@contextlib.contextmanager
def stops_like_ctrl_c() -> Iterator[None]:
    """While a command runs: ``kill`` (SIGTERM) stops it as Ctrl-C does (:class:`Interrupted`, a
    ``KeyboardInterrupt``: training keeps its last checkpoint, a tournament its record), and so
    does SIGINT in a command started in the background of a script, where the shell ignores it.
    Only in the main thread; the handlers before are restored after."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def interrupt(signum: int, frame: object) -> None:
        raise Interrupted(signum)

    before = {sig: signal.getsignal(sig) for sig in (signal.SIGTERM, signal.SIGINT)}
    signal.signal(signal.SIGTERM, interrupt)
    signal.signal(signal.SIGINT, interrupt)
    try:
        yield
    finally:
        for sig, handler in before.items():
            signal.signal(sig, handler if handler is not None else signal.SIG_DFL)


@contextlib.contextmanager
def signals_held() -> Iterator[None]:
    """SIGINT and SIGTERM wait until the block ends, then arrive: around a write and the note of
    what it wrote, so that a stop never falls between them (in the main thread; elsewhere the
    signals are not handled anyway)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    # Deferred in Python, not blocked in the kernel: a process-directed signal may be delivered to
    # another thread (tqdm's monitor, torch's pool), and Python runs every handler in the main
    # thread at its next instruction, so a kernel mask on the main thread alone does not hold it.
    pending: list[int] = []
    held = (signal.SIGINT, signal.SIGTERM)
    before = {signum: signal.signal(signum, lambda signum, _frame: pending.append(signum)) for signum in held}
    try:
        yield
    finally:
        for signum, handler in before.items():
            signal.signal(signum, handler)
        if pending:
            signal.raise_signal(pending[0])  # the held stop arrives now, through the usual handler


def run_command(
    parser: argparse.ArgumentParser, argv: Sequence[str] | None, run: Callable[[argparse.Namespace], int]
) -> int:
    """Parse ``argv`` and ``run`` it; returns the exit status (2 for refused input, printed in one
    line, as is a missing optional dependency; ``128 + signum`` for Ctrl-C or SIGTERM, one line
    saying what was kept: never raises ``SystemExit``, never shows a traceback unless ``--debug``)."""
    try:
        args = parser.parse_args(argv)
    except SystemExit as stop:  # argparse has printed its one line (or --help)
        return stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 2)
    try:
        with stops_like_ctrl_c():
            return run(args)
    except KeyboardInterrupt as stop:
        if getattr(args, "debug", False):
            raise
        signum = signal_of(stop)
        kept = getattr(stop, "kept", "")
        print(
            f"{parser.prog}: interrupted ({signal.Signals(signum).name}){'; ' + kept if kept else ''}",
            file=sys.stderr,
        )
        return 128 + signum
    except USER_ERRORS as error:
        if getattr(args, "debug", False):
            raise
        print(f"{parser.prog}: error: {one_line(error)}", file=sys.stderr)
        return 2
    except ImportError as error:
        missing = missing_extra(error)
        if missing is None or getattr(args, "debug", False):
            raise
        print(f"{parser.prog}: error: {missing}", file=sys.stderr)
        return 2
