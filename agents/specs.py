"""Agent specs: one string naming an agent, its parameters and its label, for every command line.

A spec is ``TARGET[:key=value...]``::

    strategy                              a registered name (the built-ins, or an entry point)
    ismcts:simulations=1000               a registered name with the agent's own parameters
    my_package.agents:MyAgent             a class in an importable module
    path/to/my_agent.py:MyAgent:depth=3   a class in a Python file (relative to the cwd, or absolute)
    ppo:checkpoint=runs/hearts-4p/policy.pt:label=mine
    pimc@2026-12                          a released agent: pimc as the 2026-12 release played it

TARGET names a class that is built as ``Class(rules, **params)``, the way the built-in agents
are (subclassing :class:`agents.Agent` is the documented way; the class needs an ``act``
method). Values are read as int, float, true/false, or else kept as text (:func:`parse_value`),
then checked against the constructor's annotations (:func:`check_values`: ``caution=abc`` for
``caution: float`` is refused when the agent is built, not at its first act; ``name=123`` for
``name: str`` is the text ``"123"``). A parameter given twice, or without a value, is refused.
A constructor that raises anything but a ``ValueError``, ``TypeError``, ``OSError`` (the
agent's own refusals, passed on) or ``ImportError`` (a missing dependency) is one
``ValueError`` naming the spec and the cause (:func:`construct`).
``label=NAME`` is accepted by every spec and is not passed to the class: it is the name the
agent has in tables, JSON, CSV and charts (:func:`labels` gives the default ones).

``NAME@RELEASE`` is a registered agent with the parameters and network files of a release
(:mod:`agents.releases`, :func:`released`): ``pimc@2026-12`` reads as ``pimc`` with
``release=2026-12`` and that release's parameters; a parameter written after it replaces the
release's, ``release=`` cannot be written too.

Registered names resolve through the entry-point group ``hearts_env.agents`` (an installed
package declares ``my_agent = "my_package.agents:MyAgent"`` under
``[project.entry-points."hearts_env.agents"]``), then through :data:`BUILTIN_AGENTS`, the
built-in agents this package declares there too, so a source checkout without installed
metadata still finds them. A built-in name wins over an entry point of the same name, and a
registered name wins over a module of that name: ``random:Random`` is the agent ``random`` with
a part that is not ``key=value`` (refused), not the standard library's class.

The agent classes are imported by name when a spec is resolved, never when this module is
(:mod:`agents` imports it first).
"""

from __future__ import annotations

import importlib
import importlib.metadata
import importlib.util
import inspect
import re
import sys
import types
import typing
from dataclasses import dataclass, field, replace
from pathlib import Path, PurePath
from typing import Any

import numpy as np

from agents import releases
from hearts_env.core.rules import Rules
from hearts_env.single import AGENT_GROUP

GROUP = AGENT_GROUP
"""The entry-point group an installed package registers its agents under (the one through
which :func:`hearts_env.single_agent_env` finds opponents given by name)."""

BUILTIN_AGENTS: dict[str, str] = {
    "random": "agents.simple:RandomAgent",
    "lowest": "agents.simple:LowestAgent",
    "ducker": "agents.simple:DuckerAgent",
    "strategy": "agents.strategy:StrategyAgent",
    "smear": "agents.smear:SmearAgent",
    "ismcts": "agents.ismcts:ISMCTSAgent",
    "ppo": "agents.ppo:PPOAgent",
    "pimc": "agents.pimc:PIMCAgent",
}
"""The built-in agents, name -> ``module:Class`` (imported on use, so optional dependencies stay
optional); pyproject.toml declares the same table as entry points of :data:`GROUP`."""

LABEL = "label"
"""The parameter every spec accepts: the agent's name in reports, never passed to the class."""

_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True)
class AgentSpec:
    """A parsed spec: what to build (:attr:`target`), with which parameters, under which label."""

    text: str
    """The spec as written (stripped)."""
    target: str
    """A registered name, ``package.module:Class`` or ``path/to/file.py:Class``."""
    params: dict[str, Any] = field(default_factory=dict)
    """The agent's own parameters, passed to the class (``label`` is not among them)."""
    label: str | None = None
    """The ``label=`` the spec gives, or None (then :func:`labels` chooses one)."""
    texts: dict[str, str] = field(default_factory=dict, compare=False, repr=False)
    """Each parameter's value as written, for a parameter annotated ``str`` whose text reads as a
    number (``name=123``: :func:`check_values`)."""

    @property
    def kind(self) -> str:
        """``"name"`` (registered), ``"module"`` (``module:Class``) or ``"file"`` (``file.py:Class``)."""
        if ":" not in self.target:
            return "name"
        source = self.target.rpartition(":")[0]
        return "file" if _is_path(source) else "module"

    @property
    def short_name(self) -> str:
        """The registered name, or the class's name for a ``module:Class`` or file spec."""
        return self.target.rpartition(":")[2]

    def absolute(self) -> str:
        """The spec with a file target's path made absolute (for workers with another cwd)."""
        if self.kind != "file":
            return self.text
        source, _, cls = self.target.rpartition(":")
        path = str(Path(source).expanduser().resolve())
        return f"{path}:{cls}{self.text[len(self.target) :]}"


def parse_value(text: str) -> Any:
    """A command-line value as int, float, bool or str."""
    lowered = text.lower()
    if lowered in ("true", "false"):
        return lowered == "true"
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _is_path(source: str) -> bool:
    return source.endswith(".py") or "/" in source or "\\" in source


def parse(spec: str) -> AgentSpec:
    """Read ``TARGET[:key=value...]`` (the module docstring's grammar) without importing anything.

    ``"ismcts:simulations=1000"`` -> ``AgentSpec(target="ismcts", params={"simulations": 1000})``;
    ``"my_agent.py:MyAgent:label=mine"`` -> target ``"my_agent.py:MyAgent"``, label ``"mine"``.
    A part after the target without ``=``, a parameter without a value (``worlds=``) or one given
    twice (``worlds=4:worlds=8``) is one ``ValueError`` naming the spec."""
    text = spec.strip()
    parts = text.split(":")
    if not parts[0]:
        raise ValueError(f"agent spec {spec!r}: empty agent name; choose one of {', '.join(names())}")
    if ":" in text and "=" not in parts[1] and (_is_path(parts[0]) or parts[0] not in registered()):
        target, rest = f"{parts[0]}:{parts[1]}", parts[2:]
        if not _IDENTIFIER.fullmatch(parts[1]):
            raise ValueError(f"agent spec {spec!r}: {parts[1]!r} is not a class name (write MODULE:Class)")
    else:
        target, rest = parts[0], parts[1:]
    target, pinned = released(target)  # an unknown release: one line naming the releases
    params: dict[str, Any] = {}
    texts: dict[str, str] = {}
    label = None
    for pair in rest:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or not key:
            raise ValueError(
                f"agent spec {spec!r}: {pair!r} is not key=value; write TARGET[:key=value...], "
                "e.g. ismcts:simulations=100 or my_agent.py:MyAgent:depth=3"
            )
        value = value.strip()
        if key in texts:
            raise ValueError(
                f"agent spec {spec!r}: {key} is given twice ({key}={texts[key]} and {key}={value}); "
                "give it once"
            )
        if not value:
            what = "a name" if key == LABEL else "a value"
            raise ValueError(f"agent spec {spec!r}: {key}= needs {what} (write {key}=VALUE, or leave it out)")
        texts[key] = value
        if key == LABEL:
            label = value
        else:
            params[key] = parse_value(value)
    texts.pop(LABEL, None)  # the label is not a parameter of the class
    if "release" in pinned and "release" in params:
        raise ValueError(f"agent spec {spec!r}: the release is given twice (after @ and as release=)")
    return AgentSpec(text, target, {**pinned, **params}, label, texts)


def released(name: str) -> tuple[str, dict[str, Any]]:
    """``"pimc@2026-12"`` -> ``("pimc", {"release": "2026-12", "worlds": 16, ...})``: the agent and
    the parameters of its release (:mod:`agents.releases`); a name without ``@`` -> ``(name, {})``.
    A ``module:Class`` or file target is no release: returned as it is. An unknown release is one
    ``ValueError`` naming the releases there are."""
    if ":" in name or _is_path(name):
        return name, {}
    agent, release = releases.split(name)
    if release is None:
        return name, {}
    return agent, {"release": release.name, **release.agents[agent]}


def absolute(spec: str) -> str:
    """``spec`` with a file target's path made absolute, other specs as written (stripped): what
    a process with another working directory (a Ray worker, a later resume) needs."""
    parsed = parse(spec)
    return parsed.absolute() if parsed.kind == "file" else parsed.text


def _entry_points() -> dict[str, str]:
    """The installed ``hearts_env.agents`` entry points, name -> ``module:Class``."""
    return {point.name: point.value for point in importlib.metadata.entry_points(group=GROUP)}


def registered() -> dict[str, str]:
    """Every registered agent, name -> ``module:Class``: the built-ins, then installed entry points."""
    return {**_entry_points(), **BUILTIN_AGENTS}


def names() -> list[str]:
    """The registered agent names: the built-ins first, then those installed packages declare."""
    return [*BUILTIN_AGENTS, *(name for name in _entry_points() if name not in BUILTIN_AGENTS)]


def _load_file(path_text: str, spec: str) -> Any:
    path = Path(path_text).expanduser()
    if not path.is_file():
        where = "" if path.is_absolute() else f" (relative to {Path.cwd()})"
        raise ValueError(f"agent spec {spec!r}: no such file {path_text}{where}")
    path = path.resolve()
    module_name = f"hearts_env_agent_file_{abs(hash(str(path)))}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    loader_spec = importlib.util.spec_from_file_location(module_name, path)
    if loader_spec is None or loader_spec.loader is None:
        raise ValueError(f"agent spec {spec!r}: {path_text} cannot be loaded as a Python file")
    module = importlib.util.module_from_spec(loader_spec)
    sys.modules[module_name] = module  # dataclasses and pickling look the module up by name
    try:
        loader_spec.loader.exec_module(module)
    except Exception as error:
        del sys.modules[module_name]
        raise ValueError(f"agent spec {spec!r}: running {path_text} failed: {error!r}") from error
    return module


def _load_module(name: str, spec: str) -> Any:
    """The module ``name``; ``ValueError`` when it is not there, and an ``ImportError`` of a
    dependency it imports (an optional extra such as torch) passed on, so a command can say what
    to install."""
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as error:
        missing = error.name or ""
        if missing and (name == missing or name.startswith(missing + ".")):
            raise ValueError(
                f"agent spec {spec!r}: module {name!r} is not importable ({error}; is it installed, "
                "or on PYTHONPATH? a file is written path/to/file.py:Class)"
            ) from error
        raise


def _is_agent_class(value: Any) -> bool:
    return inspect.isclass(value) and not inspect.isabstract(value) and callable(getattr(value, "act", None))


def load_class(target: str, spec: str | None = None) -> type:
    """The class ``target`` names: a registered name, ``module:Class`` or ``file.py:Class``.

    Each failure is one ``ValueError`` naming ``spec`` (default: ``target``) and what is wrong: an
    unknown name, no such file, a module that is not importable, no such class in it, or a class
    without an ``act`` method."""
    spec = target if spec is None else spec
    if ":" not in target:
        table = registered()
        if _is_path(target):
            raise ValueError(f"agent spec {spec!r}: name the class in the file, e.g. {target}:MyAgent")
        if target not in table:
            raise ValueError(
                f"unknown agent {target!r}: choose one of {', '.join(names())}, "
                "or name your own class as module:Class or path/to/file.py:Class"
            )
        module_name, _, cls_name = table[target].partition(":")
        module = _load_module(module_name, spec)
    else:
        source, _, cls_name = target.rpartition(":")
        module = _load_file(source, spec) if _is_path(source) else _load_module(source, spec)
    cls = getattr(module, cls_name, None)
    if cls is None:
        where = getattr(module, "__file__", None) or module.__name__
        found = sorted(name for name, value in vars(module).items() if _is_agent_class(value))
        hint = f"; classes with act there: {', '.join(found)}" if found else ""
        raise ValueError(f"agent spec {spec!r}: no class {cls_name!r} in {where}{hint}")
    if not _is_agent_class(cls):
        raise ValueError(
            f"agent spec {spec!r}: {cls_name} is not an agent class (subclass agents.Agent and "
            "implement act(obs, rng))"
        )
    return cls


def parameters(cls: type) -> list[str] | None:
    """The parameters ``cls(rules, ...)`` accepts by keyword besides ``rules`` (None: any, it
    takes ``**kwargs``)."""
    listed = list(inspect.signature(cls.__init__).parameters.values())[2:]  # self, rules
    if any(p.kind is inspect.Parameter.VAR_KEYWORD for p in listed):
        return None
    keyword = (inspect.Parameter.KEYWORD_ONLY, inspect.Parameter.POSITIONAL_OR_KEYWORD)
    return [p.name for p in listed if p.kind in keyword]


class ParameterError(ValueError, TypeError):
    """An agent parameter its class does not take, or a value its annotation does not accept.

    Both a ``ValueError`` (what a command reports in one line for a bad spec) and a ``TypeError``
    (what Python code expects of a value of the wrong type)."""


_MISFIT = object()
"""What :func:`_fit` returns for a value its annotation does not accept."""


def parameter_types(cls: type) -> dict[str, Any]:
    """The annotations of ``cls.__init__``'s parameters, evaluated (strings too, as
    ``from __future__ import annotations`` leaves them); a parameter without one, or whose
    annotation names something that cannot be imported here (a ``TYPE_CHECKING`` import), is
    left out: it accepts any value."""
    init = cls.__init__
    raw = dict(getattr(init, "__annotations__", None) or {})
    raw.pop("return", None)
    try:
        return {
            name: hint
            for name, hint in typing.get_type_hints(init, include_extras=True).items()
            if name in raw
        }
    except Exception:  # noqa: BLE001  (one unresolvable name: read the others one by one)
        pass
    hints = {}
    scope = getattr(init, "__globals__", {})
    for name, annotation in raw.items():
        single = types.SimpleNamespace(__annotations__={name: annotation}, __globals__=scope)
        try:
            hints[name] = typing.get_type_hints(single, include_extras=True)[name]
        except Exception:  # noqa: BLE001, S110  (unresolvable: the parameter accepts anything)
            pass
    return hints


def _fit_one(hint: Any, value: Any) -> Any:
    """``value`` as a parameter annotated ``hint`` takes it, or :data:`_MISFIT`: an int where a
    float is asked is the float, a text where a path class is asked that path; an annotation
    this does not read (a generic's arguments, a type variable) accepts anything."""
    origin = typing.get_origin(hint)
    if hint is Any:
        return value
    if hint is None or hint is type(None):
        return value if value is None else _MISFIT
    if origin is typing.Union or (hasattr(types, "UnionType") and origin is types.UnionType):
        options = typing.get_args(hint)
        fitted = [_fit_one(option, value) for option in options]
        exact = [f for f in fitted if f is value]  # a member that takes it as it is comes first
        return exact[0] if exact else next((f for f in fitted if f is not _MISFIT), _MISFIT)
    if origin is typing.Literal:
        allowed = typing.get_args(hint)
        return value if any(type(value) is type(a) and value == a for a in allowed) else _MISFIT
    if origin is typing.Annotated:
        return _fit_one(typing.get_args(hint)[0], value)
    if origin is not None:  # list[int], Sequence[str], ...: the container's type only
        hint = origin
    is_bool = isinstance(value, (bool, np.bool_))
    if hint is bool:
        return value if is_bool else _MISFIT
    if hint is int:
        return value if isinstance(value, (int, np.integer)) and not is_bool else _MISFIT
    if hint is float:
        if isinstance(value, (float, np.floating)):
            return value
        return float(value) if isinstance(value, (int, np.integer)) and not is_bool else _MISFIT
    if not isinstance(hint, type):
        return value
    try:
        if isinstance(value, hint):
            return value
    except TypeError:  # a protocol that cannot be checked at run time
        return value
    if issubclass(hint, PurePath) and isinstance(value, str):
        return hint(value)
    return _MISFIT


def _describe(hint: Any) -> str:
    """What a parameter annotated ``hint`` takes, in words (``an int``, ``a number or None``)."""
    origin = typing.get_origin(hint)
    if origin is typing.Union or (hasattr(types, "UnionType") and origin is types.UnionType):
        return " or ".join(dict.fromkeys(_describe(option) for option in typing.get_args(hint)))
    if origin is typing.Literal:
        return "one of " + ", ".join(repr(a) for a in typing.get_args(hint))
    if origin is typing.Annotated:  # Annotated[str, "a name or an agent spec"]: the words given
        said = [m for m in hint.__metadata__ if isinstance(m, str)]
        return said[0] if said else _describe(typing.get_args(hint)[0])
    words = {bool: "true or false", int: "an int", float: "a number", str: "text", type(None): "None"}
    if hint is None or hint in words:
        return words[type(None) if hint is None else hint]
    if isinstance(hint, type) and issubclass(hint, PurePath):
        return "a path"
    name = getattr(origin or hint, "__name__", str(hint))
    return f"a {name}"


def check_values(
    cls: type, params: dict[str, Any], who: str, texts: dict[str, str] | None = None
) -> dict[str, Any]:
    """``params`` as ``cls(rules, **params)`` takes them, checked against the annotations of its
    constructor (:func:`parameter_types`): ``int``, ``float`` (an int is taken as the float),
    ``bool``, ``str``, path classes (a text is taken as the path), ``None``, unions, ``Optional``,
    ``Literal`` and ``Annotated`` (a text among its metadata says what the parameter takes, in
    the error); unannotated parameters accept anything. ``texts`` are the values as a spec
    wrote them: a parameter annotated ``str`` whose text read as a number gets the text.

    A value its annotation does not accept is one :class:`ParameterError`, ``who`` first
    (``"agent spec 'x.py:MyAgent:caution=abc': MyAgent parameter caution must be a number, got
    str 'abc'"``)."""
    hints = parameter_types(cls)
    out = dict(params)
    for key, value in params.items():
        if key not in hints:
            continue
        fitted = _fit_one(hints[key], value)
        text = (texts or {}).get(key)
        if fitted is _MISFIT and text is not None:
            fitted = _fit_one(hints[key], text)
        if fitted is _MISFIT:
            raise ParameterError(
                f"{who} parameter {key} must be {_describe(hints[key])}, got {type(value).__name__} {value!r}"
            )
        out[key] = fitted
    return out


def construct(cls: type, rules: Rules, params: dict[str, Any], spec: str) -> object:
    """``cls(rules, **params)``. Its own ``ValueError``, ``TypeError`` and ``OSError`` (the
    refusals the built-in agents make: rules they cannot play, a bad value, a missing checkpoint;
    each already one line) and ``ImportError`` (a missing dependency, for a command to name) are
    passed on; anything else a constructor raises (a user's agent failing with ``RuntimeError``,
    say) is one ``ValueError`` naming ``spec`` and the cause, chained."""
    try:
        return cls(rules, **params)
    except (ValueError, TypeError, OSError, ImportError):
        raise
    except Exception as error:
        cause = " ".join(f"{type(error).__name__}: {error}".split())
        raise ValueError(f"agent spec {spec!r}: building {cls.__name__} failed: {cause}") from error


def check(spec: str) -> AgentSpec:
    """Parse ``spec`` and load its class: every error :func:`build_agent` can raise before the
    agent is built (an unknown parameter, a value its annotation refuses), without building it.
    The parameters of the spec returned are those the class is given (:func:`check_values`)."""
    parsed = parse(spec)
    cls = load_class(parsed.target, parsed.text)
    known = parameters(cls)
    unknown = sorted(set(parsed.params) - set(known)) if known is not None else []
    if unknown:
        listed = ", ".join(known) if known else "none"
        raise ParameterError(
            f"agent spec {parsed.text!r}: {parsed.short_name} has no parameter(s) {', '.join(unknown)}; "
            f"its parameters: {listed} (and label=)"
        )
    params = check_values(
        cls, parsed.params, f"agent spec {parsed.text!r}: {parsed.short_name}", parsed.texts
    )
    return replace(parsed, params=params)


def refusal(spec: str, rules: Rules) -> str | None:
    """Why the agent of ``spec`` cannot play ``rules`` (None: it can, or its class does not say)."""
    parsed = check(spec)
    ask = getattr(load_class(parsed.target, parsed.text), "refusal", None)
    return ask(rules) if callable(ask) else None


def build_agent(spec: str, rules: Rules) -> object:
    """The agent ``spec`` names, built for ``rules`` as ``Class(rules, **params)``.

    Raises one ``ValueError`` naming the spec and what is wrong (see :func:`load_class`,
    :func:`check` and :func:`construct`), or the agent's own ``ValueError`` when it cannot play
    ``rules``."""
    parsed = check(spec)
    return construct(load_class(parsed.target, parsed.text), rules, parsed.params, parsed.text)


_PATH_VALUE = re.compile(r"[/\\]|\.(pt|pth|ckpt|json|py)$")


def default_label(spec: str) -> str:
    """The name a spec without ``label=`` has in reports.

    A registered name alone, or with plain parameters, is the spec as written (``strategy``,
    ``ismcts:simulations=1000``); a spec with a path among its values (``ppo:checkpoint=...``)
    is the name (``ppo``); a ``module:Class`` or file spec is the class's name."""
    parsed = parse(spec)
    if parsed.label is not None:
        return parsed.label
    if parsed.kind == "name" and not any(_PATH_VALUE.search(str(v)) for v in parsed.params.values()):
        return parsed.text
    return parsed.short_name


def _folder_label(parsed: AgentSpec) -> str | None:
    """The name with what tells its first path-like value apart, or None when it has none: the
    folder of a file named ``policy.pt`` (what training writes: ``ppo (hearts-4p)`` for
    ``ppo:checkpoint=runs/hearts-4p/policy.pt``), else the file's stem (``ppo (h128)`` for
    ``ppo:checkpoint=results/lean/h128.pt``)."""
    for value in parsed.params.values():
        if isinstance(value, str) and _PATH_VALUE.search(value):
            path = Path(value)
            part = path.parent.name if path.name == "policy.pt" else path.stem
            return f"{parsed.short_name} ({part or value})"
    return None


def labels(specs: list[str]) -> list[str]:
    """The labels of the agents of one table, in the order of ``specs``.

    ``label=`` where given, else :func:`default_label`. A spec written as its own label
    (``strategy``, ``ppo``) keeps it; specs whose default labels would be the same, or taken,
    are told apart by their path (``ppo (hearts-4p)``, see :func:`_folder_label`), else by
    ``#2``, ``#3`` … (``MyAgent#2``). The same spec twice is one agent with one label; two specs
    given the same ``label=`` are one ``ValueError``."""
    unique = list(dict.fromkeys(spec.strip() for spec in specs))
    parsed = {spec: parse(spec) for spec in unique}
    owner: dict[str, str] = {}  # label -> the spec that has it
    for spec in unique:  # explicit labels and specs that are their own label first
        label = parsed[spec].label
        if label is None and default_label(spec) == spec:
            label = spec
        if label is None:
            continue
        if label in owner:
            raise ValueError(
                f"agent specs {owner[label]!r} and {spec!r} are both labelled {label!r}: "
                "give each its own label="
            )
        owner[label] = spec
    chosen = {label_spec: label for label, label_spec in owner.items()}
    rest = [spec for spec in unique if spec not in chosen]
    defaults = [default_label(spec) for spec in rest]
    for spec, label in zip(rest, defaults):
        if label in owner or defaults.count(label) > 1:  # shared: each by its folder where it has one
            label = _folder_label(parsed[spec]) or label
        base, count = label, 1
        while label in owner:
            count += 1
            label = f"{base}#{count}"
        owner[label] = spec
        chosen[spec] = label
    return [chosen[spec.strip()] for spec in specs]


__all__ = [
    "BUILTIN_AGENTS",
    "absolute",
    "GROUP",
    "LABEL",
    "AgentSpec",
    "ParameterError",
    "build_agent",
    "check",
    "check_values",
    "construct",
    "default_label",
    "labels",
    "load_class",
    "names",
    "parameter_types",
    "parameters",
    "parse",
    "parse_value",
    "refusal",
    "registered",
]
