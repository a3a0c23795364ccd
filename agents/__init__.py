"""Policies that map (observation, action mask) to a card: a ladder of baselines and adapters.

``agents.make(name, preset="hearts", num_players=None, **kwargs)`` builds the agent ``name`` for
that environment configuration (``num_players=None``: the preset's default, as the envs).
``kwargs`` that are the agent's own keyword-only parameters (e.g. ``simulations`` for
``ismcts``) go to the agent; the rest are rule options (docs/rules.md)::

    agent = agents.make("strategy", "black_maria", num_players=3)
    actions = agent.act({"observation": obs, "action_mask": mask}, rng)  # (B,)

=============  ===============================================================================
``random``     a uniformly random legal card
``lowest``     the lowest legal card
``ducker``     the highest card that still loses the trick, otherwise sheds safely
``strategy``   the player of the sources' strategy text (:mod:`agents.strategy`)
``smear``      the Smear heuristic: bids its hand's expected points, pulls trumps, smears
               points on its partner's tricks (:mod:`agents.smear`; Smear presets only)
``ismcts``     OpenSpiel's IS-MCTS bot at our table (standard 4-player Hearts; needs open_spiel)
``ppo``        a trained PPO policy (:mod:`agents.ppo`; needs torch)
``pimc``       search: every legal card played out on the engine in sampled worlds
               (:mod:`agents.pimc`; every preset and player count)
=============  ===============================================================================

``random`` and ``lowest`` play every preset; ``ducker`` and ``strategy`` the Hearts family,
``smear`` the Smear family, ``ismcts`` the rules OpenSpiel's ``hearts`` implements, ``ppo`` the
configuration its checkpoint was trained for. Each agent class declares it
(:meth:`Agent.supports`); :func:`refusal` asks without building the agent, and building one for
rules it cannot play is one ``ValueError`` naming the agent, the preset and what it plays.

A *spec* names an agent with parameters, for command lines: ``"ismcts:simulations=1000"``,
``"my_agent.py:MyAgent:depth=3"``, ``"my_package.agents:MyAgent:label=mine"``
(:mod:`agents.specs`: the grammar, ``label=``, and the entry-point group
``hearts_env.agents`` through which an installed package registers its agents; :func:`names`
lists them beside the built-ins). ``ppo@2026-12`` and ``pimc@2026-12`` are today's strong agents
kept playable after their defaults move on (:mod:`agents.releases`). Every function here that
takes an agent ``name`` takes any spec target: a registered name, ``module:Class`` or
``path/to/file.py:Class``.

:func:`family_defaults` gives, per game family (``"hearts"``, ``"smear"``), the agents that
training, evaluation and tournaments use when no agent is named.
"""

from __future__ import annotations

import hashlib
import inspect
import json
from pathlib import Path
from typing import Any

from agents import specs as agent_specs
from agents.base import Agent, Observation
from agents.defaults import FAMILY_DEFAULTS, FamilyDefaults, family_defaults
from agents.specs import BUILTIN_AGENTS, parse_value
from hearts_env.core.rules import Rules
from hearts_env.presets import make_rules

REGISTRY: dict[str, str] = BUILTIN_AGENTS
"""Built-in agent name -> ``module:class``; imported on use, so optional dependencies stay
optional (the table of :data:`agents.specs.BUILTIN_AGENTS`, which pyproject.toml
declares as entry points too)."""


def names() -> list[str]:
    """Names of every registered agent: the built-ins, then those installed packages register
    under the entry-point group ``hearts_env.agents``."""
    return [*REGISTRY, *(name for name in agent_specs.names() if name not in REGISTRY)]


def agent_class(name: str) -> type[Agent]:
    """The class ``name`` names: a registered agent (``ppo``, or a release of one: ``ppo@2026-12``),
    ``module:Class`` or ``path/to/file.py:Class`` (``ValueError`` naming what is wrong otherwise,
    :func:`agents.specs.load_class`)."""
    return agent_specs.load_class(agent_specs.released(name)[0])


def agent_parameters(name: str) -> list[str]:
    """The parameters of agent ``name`` that are its own settings, not rule options: the
    keyword-only ones of the built-ins, every keyword one besides ``rules`` of a custom class
    (none listed for a class that takes ``**kwargs``: it accepts any)."""
    cls = agent_class(name)
    if agent_specs.released(name)[0] in REGISTRY:
        signature = inspect.signature(cls.__init__)
        return [p.name for p in signature.parameters.values() if p.kind is inspect.Parameter.KEYWORD_ONLY]
    return agent_specs.parameters(cls) or []


def refusal(name: str, rules: Rules) -> str | None:
    """Why agent ``name`` cannot play ``rules``, as the one line :func:`make` raises (None: it can).

    From the class's declaration alone (:meth:`Agent.supports`): nothing is built or imported
    beyond the agent's module, so a command can check its agents before it starts. A ``ppo``
    checkpoint's own configuration is checked when it is loaded. A custom class that does not
    subclass :class:`Agent` and has no ``refusal`` of its own is taken to play every preset."""
    ask = getattr(agent_class(name), "refusal", None)
    return ask(rules) if callable(ask) else None


def from_rules(name: str, rules: Rules, **params: Any) -> Agent:
    """Agent ``name`` for an existing :class:`~hearts_env.core.rules.Rules`, with its own ``params``.

    A parameter the agent does not take, or a value its constructor's annotation does not accept
    (:func:`agents.specs.check_values`), is one
    :class:`~agents.specs.ParameterError` (a ``ValueError`` and a ``TypeError``) naming
    the agent, the parameter, the value and what it takes; a constructor failing otherwise than
    with a ``ValueError``, ``TypeError`` or ``ImportError`` is one ``ValueError`` naming the agent
    and the cause (:func:`agents.specs.construct`). A release (``pimc@2026-12``) brings its
    parameters; ``params`` given here replace them."""
    name, pinned = agent_specs.released(name)
    params = {**pinned, **params}
    cls = agent_class(name)
    takes_any = name not in REGISTRY and agent_specs.parameters(cls) is None
    unknown = set() if takes_any else set(params) - set(agent_parameters(name))
    if unknown:
        known = ", ".join(agent_parameters(name)) or "none"
        raise agent_specs.ParameterError(
            f"agent {name!r} has no parameter(s) {sorted(unknown)}; its parameters: {known}"
        )
    short = name.rpartition(":")[2]
    params = agent_specs.check_values(cls, params, short)
    return agent_specs.construct(cls, rules, params, name)


def make(name: str, preset: str = "hearts", num_players: int | None = None, **kwargs: Any) -> Agent:
    """Agent ``name`` for ``preset`` with ``num_players`` (None: the preset's default, as the envs).

    ``kwargs`` naming one of the agent's keyword-only parameters go to the agent; the others are
    rule options passed to :func:`hearts_env.make_rules`. Rules the agent cannot play are one
    ``ValueError`` naming the agent, the preset and what it plays (see :func:`refusal`).
    """
    own = set(agent_parameters(name))
    params = {key: value for key, value in kwargs.items() if key in own}
    options = {key: value for key, value in kwargs.items() if key not in own}
    return from_rules(name, make_rules(preset, num_players=num_players, **options), **params)


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"ismcts:simulations=1000:uct_c=2"`` -> ``("ismcts", {"simulations": 1000, "uct_c": 2.0})``;
    ``"my_agent.py:MyAgent:depth=3:label=mine"`` -> ``("my_agent.py:MyAgent", {"depth": 3})``.

    The target and the agent's own parameters (``label=`` is not one of them: see :func:`labels`);
    values are read as int, float, true/false, or else kept as text. The class is loaded, so an
    unknown agent, file, module, class or parameter is one ``ValueError`` naming the spec."""
    parsed = agent_specs.check(spec)
    return parsed.target, dict(parsed.params)


def labels(specs: list[str]) -> list[str]:
    """The names the agents of ``specs`` have in one table's reports
    (:func:`agents.specs.labels`): ``label=`` where given, else a short default."""
    return agent_specs.labels(specs)


def parse_option(text: str) -> tuple[str, Any]:
    """A command-line rule option ``KEY=VALUE`` -> ``(key, value)``, the one reading of every command.

    ``VALUE`` is JSON when it starts with ``[`` or ``{`` (``card_points={"JD": -10}``), a list when
    it holds commas (``pass_directions=left,right``: each item read by :func:`parse_value`), or
    else one value read by :func:`parse_value`. Raises ``ValueError`` naming ``text``.
    """
    key, sep, value = text.partition("=")
    key, value = key.strip(), value.strip()
    if not sep or not key:
        raise ValueError(f"write a rule option as KEY=VALUE (e.g. moon=new), got {text!r}")
    if value[:1] in ("[", "{"):
        try:
            return key, json.loads(value)
        except json.JSONDecodeError as error:
            raise ValueError(f"option {key}: {value!r} is not valid JSON ({error})") from None
    if "," in value:
        return key, [parse_value(item.strip()) for item in value.split(",")]
    return key, parse_value(value)


def from_spec(spec: str, rules: Rules) -> Agent:
    """The agent a spec names, for ``rules``."""
    name, params = parse_spec(spec)
    return from_rules(name, rules, **params)


def weight_files(spec: str, rules: Rules) -> tuple[Path, ...]:
    """The files the agent of ``spec`` reads to play ``rules`` (a trained policy's weights; none
    for a heuristic), found without building it (:meth:`Agent.weight_files`)."""
    name, params = parse_spec(spec)
    ask = getattr(agent_class(name), "weight_files", None)
    return tuple(Path(f) for f in ask(rules, **params)) if callable(ask) else ()


def weights_digest(spec: str, rules: Rules) -> str | None:
    """A short SHA-256 (16 hex digits) of the files the agent of ``spec`` reads for ``rules``, in
    order; None when it reads none (or none exists yet: building the agent will say so).

    Tournament records and leaderboard cells keep it, so a network retrained under the same spec
    (``ppo``, ``ppo:network=universal``, a checkpoint overwritten in place) is not taken for the one
    that was played."""
    files = [f for f in weight_files(spec, rules) if f.is_file()]
    if not files:
        return None
    digest = hashlib.sha256()
    for path in files:
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


__all__ = [
    "FAMILY_DEFAULTS",
    "REGISTRY",
    "Agent",
    "FamilyDefaults",
    "Observation",
    "agent_class",
    "agent_parameters",
    "from_rules",
    "family_defaults",
    "from_spec",
    "labels",
    "make",
    "names",
    "parse_option",
    "parse_spec",
    "parse_value",
    "refusal",
    "weight_files",
    "weights_digest",
]
