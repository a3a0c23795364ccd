"""RLlib (new API stack, Ray >= 2.60) adapter: a hearts-env game as an RLlib ``MultiAgentEnv``.

Needs ``pip install -e ".[rllib]"`` in the hearts-env checkout (``ray[rllib]`` and torch); nothing else in
``hearts_env`` imports this module. Three lines train PPO with action masking::

    from hearts_env.integrations.rllib import ppo_config
    algo = ppo_config("hearts", num_players=4).build_algo()
    print(algo.train())

What :class:`HeartsMultiAgentEnv` does, and why (RLlib's ``PettingZooEnv`` wrapper does not):

- **Turn-based**: each observation dict holds only the agent to act next, so RLlib asks for
  exactly one action per step. At the end of an episode every agent gets its final
  observation (mask all zero), its reward and ``terminated=True``.
- **Observation keys of RLlib's action-masking RLModule**: ``{"observations": float32 (D,),
  "action_mask": int8 (A,)}`` (hearts-env's own key is ``"observation"``), with spaces to match,
  so ``ray.rllib.examples.rl_modules.classes.action_masking_rlm.ActionMaskingTorchRLModule``
  works as it is.
- **Rewards reach every agent**: when a deal ends, each agent's reward is in that step's reward
  dict, whether or not it acts next (RLlib's ``MultiAgentEpisode`` keeps the reward of an agent
  without an observation and adds it to that agent's next step). Mid-episode (``episode="game"``)
  ``PettingZooEnv`` reports only the accumulated reward of the agent to act next, so the others'
  rewards wait for their next turn.
- **RLlib's env checker passes with unmasked sampling**: the checker steps
  ``get_action_space(agent).sample()``; the action spaces here are :class:`LegalActionSpace`,
  whose ``sample()`` without a mask draws one of the acting agent's legal actions. An illegal
  action is still a ``ValueError`` (hearts-env's default ``illegal_action="raise"``), with a hint
  on masking; ``env_config={"illegal_action": "terminate"}`` ends the episode and charges the
  offender instead.
- **Options through ``env_config``**: ``{"preset": "auction_hearts", "num_players": 4, "moon":
  "new", "render_mode": "ansi", ...}``: ``preset`` (default ``"hearts"``) and ``render_mode``
  (default ``"ansi"``) are taken out, every other key goes to ``hearts_env.env``: its env settings
  ``reward``, ``episode`` and ``illegal_action``, or a rule option of ``docs/rules.md``.

Episodes follow hearts-env: one deal by default, and RLlib's ``reset()`` (unseeded after the
first) deals the game's next deal; ``episode="game"`` makes an episode a whole game, with
rewards after each deal.
"""

from __future__ import annotations

import weakref
from collections.abc import Mapping
from typing import Any

import gymnasium
import numpy as np
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.env.multi_agent_env import MultiAgentEnv

import hearts_env

OBS_KEY = "observations"
"""The observation key that RLlib's action-masking RLModule reads (hearts-env's is ``"observation"``)."""
MASK_KEY = "action_mask"
SHARED_POLICY = "shared"
"""The module id of the one policy that every seat plays with :func:`ppo_config` (``shared_policy=True``)."""

__all__ = [
    "MASK_KEY",
    "OBS_KEY",
    "SHARED_POLICY",
    "HeartsMultiAgentEnv",
    "LegalActionSpace",
    "env_creator",
    "ppo_config",
    "register",
]


class LegalActionSpace(gymnasium.spaces.Discrete):
    """``Discrete(A)`` whose ``sample()`` without a mask draws a legal action of ``agent``.

    RLlib's env checker (and any random policy written as ``space.sample()``) samples without
    the action mask; in Hearts most cards are illegal most of the time, so a plain ``Discrete``
    would fail the checker at random. When ``agent`` is the one to act in its env, ``sample()``
    uses the env's action mask; otherwise (another agent's turn, no env, the env gone) it is a
    plain ``Discrete.sample()``. An explicit ``mask`` or ``probability`` is used as given.
    A copy or a pickle (as RLlib makes for its RLModules) is a plain ``Discrete``.
    """

    def __init__(self, n: int, env: HeartsMultiAgentEnv | None = None, agent: str | None = None):
        super().__init__(n)
        self._env_ref = weakref.ref(env) if env is not None else None
        self._agent = agent

    def sample(self, mask: np.ndarray | None = None, probability: np.ndarray | None = None) -> np.int64:
        if mask is None and probability is None and self._env_ref is not None:
            env = self._env_ref()
            legal = env.legal_mask(self._agent) if env is not None and self._agent is not None else None
            if legal is not None and legal.any():
                return super().sample(mask=legal.astype(np.int8))
        return super().sample(mask=mask, probability=probability)

    def __reduce__(self) -> tuple[Any, ...]:
        return gymnasium.spaces.Discrete, (int(self.n), None, int(self.start))

    def __repr__(self) -> str:
        return f"LegalActionSpace({int(self.n)})"


class HeartsMultiAgentEnv(MultiAgentEnv):
    """One hearts-env game (any preset and options) as a turn-based RLlib ``MultiAgentEnv``.

    ``config`` is RLlib's ``env_config`` (a plain dict works too): ``"preset"`` (default
    ``"hearts"``), ``"render_mode"`` (``"ansi"``, the default: ``render()`` returns the table as
    text; ``"human"``: printed after every step), and any option of ``hearts_env.env``. See the
    module docstring for the observation, reward and episode conventions.

    Agents are ``player_0`` … ``player_{n-1}``; every agent's observation space is
    ``Dict({"observations": Box(D,) float32, "action_mask": Box(A,) int8})`` and its action
    space ``Discrete(A)`` (:class:`LegalActionSpace`); ``action_names`` names the actions.
    """

    metadata = {"render_modes": ["ansi", "human"]}

    def __init__(self, config: Mapping[str, Any] | None = None):
        super().__init__()
        if config is not None and not isinstance(config, Mapping):
            raise TypeError(
                f"HeartsMultiAgentEnv takes RLlib's env_config, a dict such as {{'preset': 'hearts', "
                f"'num_players': 4}}, got {type(config).__name__} {config!r}"
            )
        settings = dict(config or {})  # an EnvContext is a dict; its worker_index etc. are attributes
        preset = settings.pop("preset", "hearts")
        if not isinstance(preset, str):
            raise TypeError(f"env_config['preset'] must be a preset name (str), got {preset!r}")
        render_mode = settings.pop("render_mode", "ansi")
        try:
            self._aec = hearts_env.env(preset, render_mode=render_mode, **settings)
        except (TypeError, ValueError, KeyError) as error:
            raise type(error)(f"HeartsMultiAgentEnv(env_config={dict(config or {})!r}): {error}") from error
        self._raw = self._aec.unwrapped
        self.preset: str = preset
        self.options: dict[str, Any] = settings
        """The options passed to ``hearts_env.env`` (``env_config`` less preset and render_mode)."""
        self.render_mode = render_mode
        self.action_names: tuple[str, ...] = tuple(self._raw.action_names)
        """One name per action: the card slots (``"2C"`` … ``"AS"``, jokers), then the decisions."""
        self.possible_agents = list(self._raw.possible_agents)
        self.agents = list(self.possible_agents)
        self._agent_ids = set(self.possible_agents)
        base = self._raw.observation_space(self.possible_agents[0])
        n = int(self._raw.action_space(self.possible_agents[0]).n)
        self.observation_spaces = {
            a: gymnasium.spaces.Dict({OBS_KEY: base["observation"], MASK_KEY: base["action_mask"]})
            for a in self.possible_agents
        }
        self.action_spaces = {a: LegalActionSpace(n, env=self, agent=a) for a in self.possible_agents}
        # The old-stack attributes (RLlib's env checker looks for them).
        self.observation_space = gymnasium.spaces.Dict(self.observation_spaces)
        self.action_space = gymnasium.spaces.Dict(self.action_spaces)
        self._started = False
        self._done = False

    # -- RLlib's MultiAgentEnv API -------------------------------------------------------------

    def reset(
        self, *, seed: int | None = None, options: Mapping[str, Any] | None = None
    ) -> tuple[dict[str, dict[str, np.ndarray]], dict[str, dict[str, Any]]]:
        """Start an episode; returns ``({acting_agent: obs}, {})``.

        As in hearts-env: ``seed`` starts a new game from it (the action spaces are seeded
        too); without one, in deal episodes, the game's next deal. ``options`` go to
        hearts-env's ``reset`` (``{"new_game": True}``, ``{"hands": [...], "dealer": 0}``).
        """
        self._aec.reset(seed=seed, options=None if options is None else dict(options))
        if seed is not None:
            for i, agent in enumerate(self.possible_agents):
                self.action_spaces[agent].seed(int(seed) + 1 + i)
        self._started = True
        self._done = False
        self.agents = list(self.possible_agents)
        agent = self._raw.agent_selection
        return {agent: self._observe(agent)}, {}

    def step(self, action_dict: Mapping[str, Any]) -> tuple[dict, dict, dict, dict, dict]:
        """Play the acting agent's action: ``action_dict`` must be ``{acting_agent: action}``.

        Returns RLlib's ``(obs, rewards, terminateds, truncateds, infos)``: obs of the next
        agent to act (every agent's at the episode's end), the reward of every agent that got
        one this step (at a deal's end: all), ``"__all__"`` flags, and at a deal's end each
        observed agent's hearts-env infos (``deal_points``, ``total_points``, ...).
        """
        if not self._started:
            raise RuntimeError("call reset() before step()")
        if self._done:
            raise RuntimeError("the episode is over: call reset() to start the next one")
        if not isinstance(action_dict, Mapping):
            raise TypeError(f"step() takes a dict {{agent_id: action}}, got {type(action_dict).__name__}")
        agent = self._raw.agent_selection
        if set(action_dict) != {agent}:
            raise ValueError(
                f"it is {agent}'s turn: step() takes {{{agent!r}: action}}, got actions for "
                f"{sorted(map(str, action_dict))}"
            )
        action = action_dict[agent]
        before = {a: self._raw.infos.get(a) for a in self.possible_agents}
        try:
            self._aec.step(action)
        except ValueError as error:
            legal = [self.action_names[i] for i in np.flatnonzero(self._raw.observe(agent)["action_mask"])]
            raise ValueError(
                f"{error} (legal: {', '.join(legal)}). Sample with the action mask (obs['action_mask']: "
                f"ppo_config() uses RLlib's action-masking RLModule), or set env_config "
                f"{{'illegal_action': 'terminate'}} to end the episode with a penalty instead"
            ) from None
        # The env replaces every agent's infos dict when a deal ends (and only then).
        deal_ended = any(self._raw.infos.get(a) is not before[a] for a in self.possible_agents)
        step_rewards = self._raw.rewards
        rewards = {a: float(r) + 0.0 for a, r in step_rewards.items() if r != 0.0 or deal_ended}  # no -0.0
        rewards.setdefault(agent, 0.0)  # RLlib needs a reward for an agent that acted and observes again
        if all(self._raw.terminations.get(a, True) for a in self.possible_agents):
            self._done = True
            obs = {a: self._observe(a) for a in self.possible_agents}
            for a in self.possible_agents:
                rewards.setdefault(a, 0.0)
            terminateds = {a: True for a in self.possible_agents}
            terminateds["__all__"] = True
            truncateds = {a: False for a in self.possible_agents}
            truncateds["__all__"] = False
            infos = {a: dict(self._raw.infos[a]) for a in self.possible_agents}
            return obs, rewards, terminateds, truncateds, infos
        following = self._raw.agent_selection
        rewards.setdefault(following, 0.0)
        infos = {following: dict(self._raw.infos[following])} if deal_ended else {}
        return {following: self._observe(following)}, rewards, {"__all__": False}, {"__all__": False}, infos

    def render(self) -> str | None:
        """The table as text (``render_mode="ansi"``, the default), or printed (``"human"``)."""
        if not self._started:
            raise RuntimeError("call reset() before render()")
        return self._aec.render()

    def close(self) -> None:
        self._aec.close()

    # -- helpers -------------------------------------------------------------------------------

    @property
    def current_agent(self) -> str:
        """The agent to act (after ``reset()``)."""
        return self._raw.agent_selection

    @property
    def unwrapped_env(self) -> Any:
        """The hearts-env ``raw_env`` underneath (rules, table, ``action_names``, ``teams``)."""
        return self._raw

    def legal_mask(self, agent: str) -> np.ndarray | None:
        """``agent``'s action mask (int8) if it is to act now, else ``None``."""
        if not self._started or self._done or agent != self._raw.agent_selection:
            return None
        return self._raw.observe(agent)["action_mask"]

    def _observe(self, agent: str) -> dict[str, np.ndarray]:
        obs = self._raw.observe(agent)
        return {OBS_KEY: obs["observation"], MASK_KEY: obs["action_mask"]}


def env_creator(env_config: Mapping[str, Any] | None = None) -> HeartsMultiAgentEnv:
    """RLlib's env creator: ``HeartsMultiAgentEnv(env_config)``."""
    return HeartsMultiAgentEnv(env_config)


def register(name: str = "hearts") -> str:
    """Register :class:`HeartsMultiAgentEnv` with ``ray.tune`` as ``name`` (returned), so that
    ``config.environment(name, env_config={"preset": ..., ...})`` finds it on every worker."""
    from ray.tune.registry import register_env

    if not isinstance(name, str) or not name:
        raise TypeError(f"register(name=...) takes a non-empty str, got {name!r}")
    register_env(name, env_creator)
    return name


def _shared_policy(agent_id: str, episode: Any = None, **kwargs: Any) -> str:
    return SHARED_POLICY


def _seat_policy(agent_id: str, episode: Any = None, **kwargs: Any) -> str:
    return agent_id


def ppo_config(
    preset: str = "hearts",
    *,
    env_config: Mapping[str, Any] | None = None,
    shared_policy: bool = True,
    model_config: Mapping[str, Any] | None = None,
    env: str | type[HeartsMultiAgentEnv] = HeartsMultiAgentEnv,
    **options: Any,
) -> PPOConfig:
    """A ``PPOConfig`` on RLlib's new API stack with action masking, for ``preset``.

    ``options`` (and ``env_config``, which they update) become the env's ``env_config``:
    ``ppo_config("hearts", num_players=4, moon="new")``. The env config is checked here (a bad
    option raises now, not in a worker). Every module is RLlib's
    ``ActionMaskingTorchRLModule`` (``model_config``: a ``DefaultModelConfig`` dict, default
    ``{"fcnet_hiddens": [256, 256]}``). ``shared_policy=True``: one module ``"shared"`` plays
    every seat (self-play); ``False``: one module per seat, named after the agent.
    ``env``: the class (default) or a name from :func:`register`.

    Chain RLlib's own settings on the result (``.env_runners(...)``, ``.training(...)``), then
    ``.build_algo()``.
    """
    from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

    settings = {"preset": preset, **dict(env_config or {}), **options}  # env_config's preset wins
    probe = HeartsMultiAgentEnv(settings)  # checks the options; gives the agents and spaces
    agents = list(probe.possible_agents)
    obs_space = probe.observation_spaces[agents[0]]
    act_space = gymnasium.spaces.Discrete(int(probe.action_spaces[agents[0]].n))
    probe.close()
    module_ids = [SHARED_POLICY] if shared_policy else agents
    module = dict(model_config) if model_config is not None else {"fcnet_hiddens": [256, 256]}
    specs = {
        mid: RLModuleSpec(
            module_class=ActionMaskingTorchRLModule,
            observation_space=obs_space,
            action_space=act_space,
            model_config=dict(module),
        )
        for mid in module_ids
    }
    return (
        PPOConfig()
        .api_stack(enable_rl_module_and_learner=True, enable_env_runner_and_connector_v2=True)
        .environment(env, env_config=settings)
        .multi_agent(
            policies=set(module_ids),
            policy_mapping_fn=_shared_policy if shared_policy else _seat_policy,
        )
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs=specs))
    )
