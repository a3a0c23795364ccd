"""The conformance kit: the checks every game family and every agent must pass (docs/conformance.md).

As pgx exports its ``api_test``, this module exports the checks the project's own tests run on
both families and on every registered agent, for you to run on yours::

    import hearts_env
    from hearts_env.testing import check_agent, check_family

    def test_my_agent():
        check_agent(MyAgent, "hearts")             # a class, an agent object or a registered name

    def test_every_preset():
        for preset in hearts_env.preset_names():
            check_family(preset)

:func:`check_family` plays a configuration through every public interface (the PettingZoo
envs, the vector env, :class:`~hearts_env.table.Table`) and checks what they promise: masks,
rewards, seeds and replays, saved states, agreement between the interfaces, refusals of bad
input and positions. :func:`check_agent` plays whole deals with an agent in every seat and
checks the agent contract (``act(observation_batch, rng) -> actions``). Each returns a
:class:`Report` of the checks it ran; a failed check is one ``AssertionError`` naming the check,
the configuration and what was wrong. Only public API is used: a family passes when everything
its users reach behaves as documented.
"""

from __future__ import annotations

import contextlib
import io
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
from pettingzoo.test import api_test, parallel_api_test, seed_test

from hearts_env.core.rules import Rules
from hearts_env.env import env as aec_env
from hearts_env.env import parallel_env
from hearts_env.games import family
from hearts_env.presets import make_rules
from hearts_env.single import registered_agent
from hearts_env.table import EPISODES, ILLEGAL_ACTIONS, REWARDS, Table
from hearts_env.vector import vector_env

FAMILY_CHECKS = (
    "pettingzoo api",
    "masks",
    "rewards",
    "seeds",
    "state round trip",
    "batch agreement",
    "bad inputs",
    "positions",
)
"""The checks of :func:`check_family`, in the order they run."""

AGENT_CHECKS = ("shape and dtype", "legal actions", "whole deals", "one row", "reproducible", "another width")
"""The checks of :func:`check_agent`, in the order they run (the first three during the same play)."""

_MAX_STEPS = 20_000
"""Decisions after which a deal that has not ended is a failure (the longest deal has a few hundred)."""
_REPLAYED = 16
"""Decisions that :func:`check_agent` plays again to see the agent reproduce them (search agents are slow)."""
_SAVED_SETTINGS = {"reward": "zero_sum", "episode": "game", "illegal_action": "terminate"}
"""The env settings of the table whose state the round trip saves: none is a default, so a state
that forgets one (and loads as the defaults) is caught."""
_SETTING_VALUES = {"reward": REWARDS, "episode": EPISODES, "illegal_action": ILLEGAL_ACTIONS}


@dataclass(frozen=True)
class Report:
    """What a check function checked: the subject, the checks passed, those skipped and why."""

    subject: str
    """The family or agent and its configuration, e.g. ``"hearts with 4 players"``."""
    passed: tuple[str, ...]
    """The checks run and passed, in order."""
    skipped: tuple[tuple[str, str], ...] = ()
    """``(check, why)`` for each check that did not apply to this configuration."""
    decisions: int = 0
    """Decisions played, every interface together."""

    def __str__(self) -> str:
        skipped = "".join(f"; skipped {name} ({why})" for name, why in self.skipped)
        return f"{self.subject}: passed {', '.join(self.passed)} ({self.decisions} decisions){skipped}"


class _NotApplicableError(Exception):
    """A check that does not apply to the configuration (why: the message)."""


class _CheckFailedError(AssertionError):
    """A failure of check :attr:`check`, found while another check ran (one play serves several)."""

    def __init__(self, check: str, message: str) -> None:
        super().__init__(message)
        self.check = check


@dataclass
class _Run:
    """The checks of one call as they run: each under :meth:`check`, which names it on failure."""

    caller: str
    subject: str
    passed: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    decisions: int = 0

    @contextlib.contextmanager
    def check(self, name: str, covers: tuple[str, ...] = ()) -> Iterator[None]:
        """Run the block as check ``name`` (and the checks ``covers``, which the same block
        makes): any exception becomes one ``AssertionError`` naming the check and the subject
        (the cause chained), so a failure reads as a broken promise."""
        try:
            yield
        except _NotApplicableError as why:
            self.skipped.append((name, str(why)))
            return
        except _CheckFailedError as error:
            raise AssertionError(
                f"{self.caller} failed the {error.check!r} check for {self.subject}: {error}"
            ) from None
        except AssertionError as error:
            raise AssertionError(
                f"{self.caller} failed the {name!r} check for {self.subject}: {error}"
            ) from None
        except Exception as error:
            raise AssertionError(
                f"{self.caller} failed the {name!r} check for {self.subject}: {type(error).__name__}: {error}"
            ) from error
        self.passed.extend([*covers, name])

    def report(self) -> Report:
        return Report(self.subject, tuple(self.passed), tuple(self.skipped), self.decisions)


def _expect(condition: Any, message: str) -> None:
    """``AssertionError(message)`` unless ``condition`` (not an ``assert``: ``python -O`` keeps it)."""
    if not condition:
        raise AssertionError(message)


def _refused(call: Callable[[], Any], kinds: tuple[type[Exception], ...], what: str) -> None:
    """``call()`` must raise one of ``kinds``: a refusal, not an answer nor another error."""
    try:
        call()
    except kinds:
        return
    raise AssertionError(f"{what} was accepted; expected {' or '.join(k.__name__ for k in kinds)}")


def _same(a: Any, b: Any, what: str) -> None:
    """Equal arrays (or nested dicts of them), else an ``AssertionError`` naming ``what``."""
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        if set(a) != set(b):
            raise AssertionError(f"{what}: keys {sorted(a)} != {sorted(b)}")
        for key in a:
            _same(a[key], b[key], f"{what}[{key!r}]")
    elif not np.array_equal(np.asarray(a), np.asarray(b)):  # the message is only made on failure
        raise AssertionError(f"{what} differ: {_shown(a)} != {_shown(b)}")


def _shown(value: Any) -> str:
    text = repr(value.tolist() if isinstance(value, np.ndarray) else value)  # one line, whatever the shape
    return text if len(text) <= 200 else text[:197] + "..."


def _random_actions(mask: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One uniformly random legal action per row of ``mask`` (B, A); 0 where none is legal."""
    weights = rng.random(mask.shape) * (mask > 0)
    return np.argmax(weights, axis=1).astype(np.int64)


def _where(rules: Rules) -> str:
    return f"{rules.preset} with {rules.num_players} players"


# ---------------------------------------------------------------------- playing a table
@dataclass
class _Step:
    """One decision in every game of a table, and what it did."""

    observation: np.ndarray
    mask: np.ndarray
    player: np.ndarray
    actions: np.ndarray
    rewards: np.ndarray
    deal_ended: np.ndarray
    game_ended: np.ndarray
    episode_ended: np.ndarray


def _play(
    table: Table,
    deals: int,
    choose: Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray],
    on_step: Callable[[Table, _Step], None] | None = None,
    then: int = 0,
) -> list[_Step]:
    """Play every game of ``table`` (already dealt) until each has finished ``deals`` deals, then
    ``then`` decisions more, the next deal started at once where one ended (as the vector env
    does). ``choose(observation, mask, player)`` gives the actions; ``on_step(table, step)`` sees
    each step before the redeal."""
    steps: list[_Step] = []
    finished = np.zeros(table.num_games, np.int64)
    after = 0  # decisions played once every game has finished its deals
    while finished.min() < deals or after < then:
        after += finished.min() >= deals
        _expect(len(steps) < _MAX_STEPS, f"no deal ended within {_MAX_STEPS} decisions")
        observation, mask = table.observe().copy(), table.action_mask().copy()
        player = np.array(table.current_player)
        actions = np.asarray(choose(observation, mask, player))
        result = table.step(actions)
        step = _Step(
            observation, mask, player, actions.copy(), result.rewards.copy(),
            result.deal_ended.copy(), result.game_ended.copy(), result.episode_ended.copy(),
        )  # fmt: skip
        if on_step is not None:
            on_step(table, step)
        steps.append(step)
        finished += step.deal_ended
        if step.deal_ended.any():
            table.redeal(np.flatnonzero(step.deal_ended))
    return steps


def _random_play(rules: Rules, seed: int, deals: int, games: int) -> list[_Step]:
    """Uniformly random legal play of ``deals`` deals in ``games`` games dealt from ``seed``."""
    table = Table(rules, games)
    table.reset(seed=seed)
    rng = np.random.default_rng(seed)
    return _play(table, deals, lambda obs, mask, player: _random_actions(mask, rng))


def _same_steps(ours: list[_Step], theirs: list[_Step], what: str) -> None:
    _expect(len(ours) == len(theirs), f"{what}: {len(ours)} decisions against {len(theirs)}")
    for i, (a, b) in enumerate(zip(ours, theirs)):
        for name in ("observation", "mask", "player", "rewards", "deal_ended", "game_ended", "episode_ended"):
            _expect(
                np.array_equal(getattr(a, name), getattr(b, name)), f"{what}: {name} differ at decision {i}"
            )


def _replica(table: Table, game: int, count: int) -> Table:
    """A new table of ``count`` copies of ``game`` of ``table``, through the saved state."""
    saved = table.state_dict()
    fields = {
        name: np.repeat(value[game : game + 1], count, axis=0) for name, value in saved["fields"].items()
    }
    copy = Table(table.rules, count, **table.settings)
    copy.load_state_dict({**saved, "num_games": count, "fields": fields})
    return copy


def _snapshot(table: Table) -> dict[str, Any]:
    saved = table.state_dict()
    return {"fields": saved["fields"], "rng": saved["rng"]}


# ---------------------------------------------------------------------- the family checks
def check_family(
    preset: str, num_players: int | None = None, *, seed: int = 0, deals: int = 1, games: int = 4
) -> Report:
    """Check that the configuration ``preset`` with ``num_players`` (None: the preset's default)
    keeps every promise of the public interfaces; return the :class:`Report` of the checks run.

    ``seed`` deals the games; ``deals``: how many deals each random play lasts; ``games``: the
    batch size of the tables and vector envs played. The checks (:data:`FAMILY_CHECKS`, each
    described in docs/conformance.md): PettingZoo's ``api_test`` and ``parallel_api_test``;
    masks; rewards and their sign (:attr:`Family.better <hearts_env.games.Family.better>`);
    seeds and replays; ``state_dict`` round trips; the vector env, the AEC env and a table of
    several games agreeing with single-game play; refusals of bad input leaving the envs usable;
    positions round trips. A broken promise is one ``AssertionError`` naming the check and the
    configuration; an unknown preset or player count is ``make_rules``'s ``ValueError``.
    """
    rules = make_rules(preset, num_players=num_players)
    _expect_count("deals", deals)
    _expect_count("games", games)
    run = _Run("check_family", _where(rules))
    with run.check("pettingzoo api"):
        _pettingzoo_api(rules)
    with run.check("masks"):
        run.decisions += _masks(rules, seed, deals, games)
    with run.check("rewards"):
        run.decisions += _rewards(rules, seed, deals, games)
    with run.check("seeds"):
        run.decisions += _seeds(rules, seed, deals, games)
    with run.check("state round trip"):
        run.decisions += _state_round_trip(rules, seed, games)
    with run.check("batch agreement"):
        run.decisions += _batch_agreement(rules, seed, deals, games)
    with run.check("bad inputs"):
        run.decisions += _bad_inputs(rules, seed, games)
    with run.check("positions"):
        run.decisions += _positions(rules, seed, games)
    return run.report()


def _expect_count(name: str, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"{name} must be a positive int, got {value!r}")


def _options(rules: Rules) -> dict[str, Any]:
    """The keyword arguments that build an env of ``rules``' configuration."""
    return {"num_players": rules.num_players}


def _pettingzoo_api(rules: Rules) -> None:
    """PettingZoo's own tests of the AEC and parallel envs (their progress lines silenced)."""
    with contextlib.redirect_stdout(io.StringIO()):
        api_test(aec_env(rules.preset, **_options(rules)), num_cycles=40)
        parallel_api_test(parallel_env(rules.preset, **_options(rules)), num_cycles=40)


def _masks(rules: Rules, seed: int, deals: int, games: int) -> int:
    """Every mask of a random play: int8 0/1 of the action count, a legal action in every deal
    in play, none once a deal is over; every legal action of game 0 accepted and illegal ones
    refused (``ValueError``, nothing changed) at some of its decisions."""
    actions = len(rules.action_names)

    def inspect(table: Table, step: _Step) -> None:
        mask = step.mask
        _expect(mask.dtype == np.int8, f"action_mask() dtype is {mask.dtype}, not int8")
        _expect(
            mask.shape == (table.num_games, actions),
            f"action_mask() shape {mask.shape} != {(games, actions)}",
        )
        _expect(np.isin(mask, (0, 1)).all(), "action_mask() holds values other than 0 and 1")
        _expect(
            mask.any(axis=1).all(), f"games {np.flatnonzero(~mask.any(axis=1)).tolist()} have no legal action"
        )
        over = np.flatnonzero(step.deal_ended)
        _expect(
            not table.action_mask()[over].any(),
            f"games {over.tolist()} ended their deal, yet have legal actions",
        )

    table = Table(rules, games)
    table.reset(seed=seed)
    rng = np.random.default_rng(seed)
    count = 0

    def choose(observation: np.ndarray, mask: np.ndarray, player: np.ndarray) -> np.ndarray:
        nonlocal count
        if count % 5 == 0:
            _every_action_of_game_0(table, mask[0])
        count += 1
        return _random_actions(mask, rng)

    return len(_play(table, deals, choose, inspect))


def _every_action_of_game_0(table: Table, mask: np.ndarray) -> None:
    legal, illegal = np.flatnonzero(mask), np.flatnonzero(mask == 0)
    copies = _replica(table, 0, len(legal))
    try:
        copies.step(legal)
    except ValueError as error:
        raise AssertionError(f"a legal action of the mask was refused: {error}") from None
    one = _replica(table, 0, 1)
    before = _snapshot(one)
    for action in illegal[:: max(1, len(illegal) // 3)][:3]:
        _refused(
            lambda a=action: one.step(np.array([a])), (ValueError,), f"illegal action {action} (masked out)"
        )
        _same(_snapshot(one), before, f"the table after refusing illegal action {action}")


def _rewards(rules: Rules, seed: int, deals: int, games: int) -> int:
    """Rewards of a random play: finite, zero until a deal ends; with ``reward="points"`` the
    deal points signed so that higher is better (the family's :attr:`better`); each deal's
    points added to the game's totals."""
    sign = 1.0 if family(rules).better == "higher" else -1.0
    better = "higher" if sign > 0 else "lower"
    table = Table(rules, games, reward="points")
    table.reset(seed=seed)
    rng = np.random.default_rng(seed)
    start = np.array(table.totals)  # each game's totals before the step: they change only as a deal ends

    def choose(observation: np.ndarray, mask: np.ndarray, player: np.ndarray) -> np.ndarray:
        nonlocal start
        start = np.array(table.totals)
        return _random_actions(mask, rng)

    def inspect(table: Table, step: _Step) -> None:
        _expect(np.isfinite(step.rewards).all(), "a reward is not finite")
        _expect(
            step.rewards.shape == (table.num_games, rules.num_players), f"rewards shape {step.rewards.shape}"
        )
        _expect(not step.rewards[~step.deal_ended].any(), "a reward was paid while no deal ended")
        ended = np.flatnonzero(step.deal_ended)
        points = np.array(table.deal_points)[ended]
        _same(
            step.rewards[ended],
            sign * points,
            f"reward='points' rewards ({better} points are better) and deal points",
        )
        _same(
            np.array(table.totals)[ended],
            start[ended] + points,
            "the totals and the previous totals plus the deal points",
        )

    steps = _play(table, deals, choose, inspect)
    count = len(steps)
    # the default reward too: finite, and only where a deal ended
    for step in _random_play(rules, seed + 1, deals, games):
        _expect(np.isfinite(step.rewards).all(), "a reward (the default reward) is not finite")
        _expect(not step.rewards[~step.deal_ended].any(), "a reward (the default reward) was paid mid-deal")
        count += 1
    return count


def _seeds(rules: Rules, seed: int, deals: int, games: int) -> int:
    """The same seed plays the same games (a table, the AEC env by PettingZoo's ``seed_test``,
    the vector env's random player); another seed deals other games."""
    first = _random_play(rules, seed, deals, games)
    _same_steps(_random_play(rules, seed, deals, games), first, "two tables reset with the same seed")
    other = Table(rules, games)
    other.reset(seed=seed + 1)
    _expect(
        not np.array_equal(other.observe(), first[0].observation),
        f"seeds {seed} and {seed + 1} dealt the same {games} games: the seed is not used",
    )
    with contextlib.redirect_stdout(io.StringIO()):
        seed_test(lambda: aec_env(rules.preset, **_options(rules)), num_cycles=40)
    runs = []
    for _ in range(2):
        venv = vector_env(rules.preset, num_envs=games, seed=seed, **_options(rules))
        try:
            obs, _info = venv.reset(seed=seed)
            seen = [obs["observation"].copy()]
            for _step in range(30):
                obs, _reward, _terminated, _truncated, info = venv.step_random()
                seen += [obs["observation"].copy(), info["actions"].copy()]
            runs.append(seen)
        finally:
            venv.close()
    for i, (a, b) in enumerate(zip(*runs)):
        _expect(
            np.array_equal(a, b), f"two vector envs reset with seed {seed} differ at step_random {i // 2}"
        )
    return 2 * len(first) + 60


def _replay(table: Table, steps: list[_Step], what: str) -> None:
    """Play ``steps``' actions on ``table`` (redealing where a deal ended): every observation,
    mask, acting seat, reward and end must be those recorded."""
    replayed = []
    for step in steps:
        observation, mask = table.observe().copy(), table.action_mask().copy()
        player = np.array(table.current_player)
        result = table.step(step.actions)
        replayed.append(
            _Step(observation, mask, player, step.actions, result.rewards.copy(), result.deal_ended.copy(),
                  result.game_ended.copy(), result.episode_ended.copy())
        )  # fmt: skip
        if result.deal_ended.any():
            table.redeal(np.flatnonzero(result.deal_ended))
    _same_steps(replayed, steps, what)


def _state_round_trip(rules: Rules, seed: int, games: int) -> int:
    """``state_dict()`` mid-deal is plain arrays and values; loaded into a new table of the same
    env settings (``Table(rules, n, **table.settings)``), or back into the one that played on, the
    games continue exactly as they did (the next deals too, since the generator is saved; the
    rewards and episode ends too, since the settings are saved); a table of other settings
    refuses it."""
    table = Table(rules, games, **_SAVED_SETTINGS)
    table.reset(seed=seed)
    rng = np.random.default_rng(seed)
    for _ in range(5):
        table.step(_random_actions(table.action_mask(), rng))
        table.redeal(np.flatnonzero(table.deal_over))
    saved = table.state_dict()
    for name, value in saved["fields"].items():
        _expect(
            isinstance(value, np.ndarray) and value.dtype.kind in "biuf",
            f"state_dict field {name!r} is not a plain numeric array: {type(value).__name__}",
        )
    _expect(
        isinstance(saved["rng"], dict), f"state_dict's generator state is a {type(saved['rng']).__name__}"
    )
    # into the next deals: the generator that dealt them was saved too
    later = _play(table, 1, lambda obs, mask, player: _random_actions(mask, rng), then=3)
    for name, values in _SETTING_VALUES.items():
        other = {**table.settings, name: next(value for value in values if value != table.settings[name])}
        _refused(
            lambda other=other: Table(rules, games, **other).load_state_dict(saved),
            (ValueError,),
            f"a state saved with {name}={table.settings[name]!r}, loaded by a table of {other[name]!r}",
        )
    fresh = Table(rules, games, **table.settings)
    fresh.load_state_dict(saved)
    _replay(fresh, later, "a new table loaded with the saved state, against the table that saved it")
    table.load_state_dict(saved)
    _replay(table, later, "the table loaded back with its own saved state")
    return 5 + 3 * len(later)


def _batch_agreement(rules: Rules, seed: int, deals: int, games: int) -> int:
    """What the API promises about its layers: the vector env is a table of B games with the
    next deal started at once; the AEC env a table of one game; a table of several games plays
    each as a table of one would."""
    steps = _random_play(rules, seed, deals, games)
    venv = vector_env(rules.preset, num_envs=games, seed=seed, **_options(rules))
    try:
        obs, info = venv.reset(seed=seed)
        rows = np.arange(games)
        for i, step in enumerate(steps):
            _same(obs["observation"], step.observation, f"vector env and table observations at decision {i}")
            _same(obs["action_mask"], step.mask, f"vector env and table masks at decision {i}")
            _same(info["current_player"], step.player, f"vector env and table acting seats at decision {i}")
            obs, reward, terminated, _truncated, info = venv.step(step.actions)
            _same(info["rewards"], step.rewards, f"vector env and table rewards at decision {i}")
            _same(
                reward,
                step.rewards[rows, step.player],
                f"vector env rewards of the acting seats at decision {i}",
            )
            _same(terminated, step.deal_ended, f"vector env terminations and table deal ends at decision {i}")
    finally:
        venv.close()
    return len(steps) + _aec_agreement(rules, seed, deals) + _games_agreement(rules, seed, games)


def _aec_agreement(rules: Rules, seed: int, deals: int) -> int:
    """The AEC env against a table of one game, deal after deal (``reset()`` goes on with the
    game): observations, masks, the acting agent, rewards and the end-of-deal infos."""
    env = aec_env(rules.preset, **_options(rules))
    table = Table(rules, 1)
    env.reset(seed=seed)
    table.reset(seed=seed)
    rng = np.random.default_rng(seed)
    decisions = 0
    for deal in range(deals):
        if deal:
            env.reset()
            table.reset(new_game=False)
        while not table.deal_over[0]:
            agent, where = env.agent_selection, f"AEC env and table at decision {decisions}"
            _expect(
                agent == f"player_{int(table.current_player[0])}",
                f"{where}: {agent} acts, not seat {table.current_player[0]}",
            )
            obs = env.observe(agent)
            _same(obs["observation"], table.observe()[0], f"{where}: observations")
            _same(obs["action_mask"], table.action_mask()[0], f"{where}: masks")
            action = _random_actions(obs["action_mask"][None], rng)
            env.step(int(action[0]))
            result = table.step(action)
            decisions += 1
        for i, name in enumerate(env.possible_agents):
            _same(
                env.rewards[name], result.rewards[0, i], f"AEC env and table rewards of {name} at deal {deal}"
            )
            _same(
                env.infos[name]["deal_points"],
                table.deal_points[0, i],
                f"AEC env infos' deal_points of {name}",
            )
            _same(
                env.infos[name]["total_points"], table.totals[0, i], f"AEC env infos' total_points of {name}"
            )
        _expect(all(env.terminations.values()), f"the AEC env's episode did not end with deal {deal}")
    return decisions


def _games_agreement(rules: Rules, seed: int, games: int) -> int:
    """A table of several games, put together from tables of one game each, plays each game as
    its table of one does, until a deal ends; every seat's observation too."""
    singles = []
    for g in range(games):
        single = Table(rules, 1)
        single.reset(seed=seed + g)
        singles.append(single)
    saved = [single.state_dict() for single in singles]
    fields = {name: np.concatenate([s["fields"][name] for s in saved]) for name in saved[0]["fields"]}
    together = Table(rules, games)
    together.load_state_dict({**saved[0], "num_games": games, "fields": fields})
    rng = np.random.default_rng(seed)
    decisions = 0
    while True:
        mask = together.action_mask()
        for g, single in enumerate(singles):
            where = f"game {g} of a table of {games} and a table of one at decision {decisions}"
            _same(mask[g], single.action_mask()[0], f"{where}: masks")
            _same(together.current_player[g], single.current_player[0], f"{where}: acting seats")
            if decisions % 8 == 0:
                for seat in range(rules.num_players):
                    _same(
                        together.observe(np.full(games, seat))[g],
                        single.observe(np.array([seat]))[0],
                        f"{where}: seat {seat}'s observations",
                    )
        actions = _random_actions(mask, rng)
        result = together.step(actions)
        for g, single in enumerate(singles):
            alone = single.step(actions[g : g + 1])
            _same(result.rewards[g], alone.rewards[0], f"game {g} of a table of {games} and alone: rewards")
            _same(
                result.deal_ended[g],
                alone.deal_ended[0],
                f"game {g} of a table of {games} and alone: deal ends",
            )
        decisions += 1
        if result.deal_ended.any():
            return decisions * (games + 1)


def _bad_inputs(rules: Rules, seed: int, games: int) -> int:
    """Bad resets and actions are refused (``TypeError`` / ``ValueError``) by the AEC env, the
    vector env and a table, and leave them as they were: each plays on as a twin never given
    them."""
    env, twin = aec_env(rules.preset, **_options(rules)), aec_env(rules.preset, **_options(rules))
    env.reset(seed=seed)
    twin.reset(seed=seed)
    agent = env.agent_selection
    mask = env.observe(agent)["action_mask"]
    legal, illegal = int(np.flatnonzero(mask)[0]), np.flatnonzero(mask == 0)
    bad = [
        ("reset option 'no_such_option'", lambda: env.reset(options={"no_such_option": 1}), (ValueError,)),
        ("reset seed -1", lambda: env.reset(seed=-1), (TypeError, ValueError)),
        (f"action {float(legal)!r} (a float)", lambda: env.step(float(legal)), (TypeError,)),
        (f"action {str(legal)!r} (a string)", lambda: env.step(str(legal)), (TypeError,)),
        ("action True (a bool)", lambda: env.step(True), (TypeError,)),
        (f"action [{legal}] (a list)", lambda: env.step([legal]), (TypeError,)),
        ("action -1", lambda: env.step(-1), (ValueError,)),
        (f"action {len(mask)} (out of range)", lambda: env.step(len(mask)), (ValueError,)),
    ]
    if len(illegal):
        bad.append((f"illegal action {int(illegal[0])}", lambda: env.step(int(illegal[0])), (ValueError,)))
    for what, call, kinds in bad:
        _refused(call, kinds, f"AEC env: {what}")
        _expect(env.agent_selection == twin.agent_selection, f"AEC env: {what} changed the acting agent")
        _same(env.observe(agent), twin.observe(agent), f"AEC env after refusing {what}: the observation")
    rng = np.random.default_rng(seed)
    decisions = 0
    while not all(twin.terminations.values()):
        agent = twin.agent_selection
        action = int(_random_actions(twin.observe(agent)["action_mask"][None], rng)[0])
        env.step(action)
        twin.step(action)
        _same(
            env.rewards, twin.rewards, f"AEC env after bad input, and a twin: rewards at decision {decisions}"
        )
        decisions += 1
    return decisions + _vector_bad_inputs(rules, seed, games) + _table_bad_inputs(rules, seed, games)


def _vector_bad_inputs(rules: Rules, seed: int, games: int) -> int:
    venv = vector_env(rules.preset, num_envs=games, seed=seed, **_options(rules))
    twin = vector_env(rules.preset, num_envs=games, seed=seed, **_options(rules))
    try:
        obs, _ = venv.reset(seed=seed)
        twin.reset(seed=seed)
        rng = np.random.default_rng(seed)
        actions = _random_actions(obs["action_mask"], rng)
        wrong = np.flatnonzero(obs["action_mask"][0] == 0)
        bad = [
            (
                "reset option 'no_such_option'",
                lambda: venv.reset(options={"no_such_option": 1}),
                (ValueError,),
            ),
            (
                f"{games - 1} actions for {games} games",
                lambda: venv.step(actions[:-1]),
                (TypeError, ValueError),
            ),
            ("float actions", lambda: venv.step(actions.astype(np.float64)), (TypeError,)),
            ("an action out of range", lambda: venv.step(np.full(games, 10_000)), (ValueError,)),
        ]
        if len(wrong):
            illegal = actions.copy()
            illegal[0] = wrong[0]
            bad.append(
                (f"illegal action {int(wrong[0])} in game 0", lambda: venv.step(illegal), (ValueError,))
            )
        for what, call, kinds in bad:
            _refused(call, kinds, f"vector env: {what}")
        for i in range(10):
            ours, theirs = venv.step(actions), twin.step(actions)
            _same(ours[0], theirs[0], f"vector env after bad input, and a twin: observations at step {i}")
            _same(
                ours[4]["rewards"],
                theirs[4]["rewards"],
                f"vector env after bad input, and a twin: rewards at step {i}",
            )
            actions = _random_actions(ours[0]["action_mask"], rng)
    finally:
        venv.close()
        twin.close()
    return 20


def _table_bad_inputs(rules: Rules, seed: int, games: int) -> int:
    table = Table(rules, games)
    table.reset(seed=seed)
    before = _snapshot(table)
    mask = table.action_mask()
    actions = _random_actions(mask, np.random.default_rng(seed))
    bad = [
        ("reset option 'no_such_option'", lambda: table.reset(options={"no_such_option": 1}), (ValueError,)),
        (
            f"{games + 1} actions for {games} games",
            lambda: table.step(np.append(actions, 0)),
            (TypeError, ValueError),
        ),
        ("float actions", lambda: table.step(actions.astype(np.float64)), (TypeError, ValueError)),
        ("negative actions", lambda: table.step(np.full(games, -1)), (ValueError,)),
    ]
    for what, call, kinds in bad:
        _refused(call, kinds, f"Table: {what}")
        _same(_snapshot(table), before, f"the table after refusing {what}")
    table.step(actions)  # and it plays on
    return 1


def _positions(rules: Rules, seed: int, games: int) -> int:
    """``Table.position(g)`` of a deal in play, given to ``set_position`` of a new table, shows
    every seat the same observation and mask, and the deal goes on to the same rewards."""
    table = Table(rules, games)
    table.reset(seed=seed)
    rng = np.random.default_rng(seed)
    decisions = 0
    while decisions < _MAX_STEPS:
        if decisions % 3 == 2:
            for g in range(games):
                try:
                    position = table.position(g)
                except NotImplementedError as error:
                    raise _NotApplicableError(f"Table.position: {error}") from None
                except ValueError:  # not in its play phase: a position is of a deal in play
                    continue
                return decisions + _same_position(table, g, position, rng)
        table.step(_random_actions(table.action_mask(), rng))
        table.redeal(np.flatnonzero(table.deal_over))
        decisions += 1
    raise _NotApplicableError(f"Table.position gave no position in {_MAX_STEPS} decisions")


def _same_position(table: Table, game: int, position: Any, rng: np.random.Generator) -> int:
    started = Table(table.rules, 1, **table.settings)
    started.set_position(position)
    where = f"game {game} and a table started from its Table.position"
    for seat in range(table.rules.num_players):
        _same(
            started.observe(np.array([seat]))[0],
            table.observe(np.full(table.num_games, seat))[game],
            f"{where}: seat {seat}'s observations",
        )
    alone = _replica(table, game, 1)
    decisions = 0
    while not alone.deal_over[0]:
        _same(started.action_mask(), alone.action_mask(), f"{where}: masks after {decisions} decisions")
        _same(
            started.current_player, alone.current_player, f"{where}: acting seats after {decisions} decisions"
        )
        action = _random_actions(alone.action_mask(), rng)
        ours, theirs = started.step(action), alone.step(action)
        _same(ours.rewards, theirs.rewards, f"{where}: rewards after {decisions} decisions")
        decisions += 1
    return decisions


# ---------------------------------------------------------------------- the agent checks
def check_agent(
    agent: Any,
    preset: str,
    num_players: int | None = None,
    *,
    seed: int = 0,
    deals: int = 2,
    games: int = 4,
    params: Mapping[str, Any] | None = None,
    reproducible: bool = True,
) -> Report:
    """Check that ``agent`` keeps the agent contract on ``preset`` with ``num_players`` (None: the
    preset's default); return the :class:`Report` of the checks run.

    ``agent``: an agent object built for this configuration, a class (or any callable) built as
    ``agent(rules, **params)``, or the name of an agent registered under the entry-point group
    :data:`~hearts_env.single.AGENT_GROUP` (built the same way). The agent plays every seat of
    ``games`` games for ``deals`` deals each, as ``act({"observation": (B, D) float32,
    "action_mask": (B, A) int8, "slot": (B,) int64}, rng)``. The checks (:data:`AGENT_CHECKS`,
    docs/conformance.md): the actions are a (B,) integer array, each legal under its row's mask;
    whole deals are played; a batch of one row is answered; the first decisions played again by
    an agent built again (or the same object) with a generator of the same seed are the same
    (``reproducible=False`` skips this for an agent that does not promise it); an observation
    one column wider is refused with ``ValueError``. A broken promise is one ``AssertionError``
    naming the check and the configuration; an agent that refuses the rules raises its own
    ``ValueError`` when built.
    """
    rules = make_rules(preset, num_players=num_players)
    _expect_count("deals", deals)
    _expect_count("games", games)
    build = _builder(agent, rules, dict(params or {}))
    player = build()
    run = _Run("check_agent", f"agent {_agent_name(agent)} on {_where(rules)}")
    table = Table(rules, games)
    table.reset(seed=seed)
    rng = np.random.default_rng(seed)
    first: list[np.ndarray] = []
    with run.check("whole deals", covers=("shape and dtype", "legal actions")):
        steps = _play(table, deals, _acting(player, rules, rng, first))
    run.decisions += len(steps)
    with run.check("one row"):
        one = {"observation": steps[0].observation[:1], "action_mask": steps[0].mask[:1]}
        actions = _actions_of(player.act(one, np.random.default_rng(seed)), one["action_mask"])
        _expect(
            one["action_mask"][0, actions[0]], f"on a batch of one row it chose illegal action {actions[0]}"
        )
    with run.check("reproducible"):
        if not reproducible:
            raise _NotApplicableError("reproducible=False: the agent does not promise it")
        again: list[np.ndarray] = []
        table = Table(rules, games)
        table.reset(seed=seed)
        choose = _acting(build(), rules, np.random.default_rng(seed), again)
        for _ in range(min(_REPLAYED, len(first))):
            table.step(choose(table.observe(), table.action_mask(), np.array(table.current_player)))
            table.redeal(np.flatnonzero(table.deal_over))
        run.decisions += len(again)
        for i, (a, b) in enumerate(zip(first, again)):
            _expect(
                np.array_equal(a, b),
                f"built again and given a generator of the same seed, it chose {b.tolist()} at decision {i}, "
                f"not {a.tolist()}",
            )
    with run.check("another width"):
        step = steps[0]
        wide = {
            "observation": np.concatenate([step.observation, np.zeros((games, 1), np.float32)], axis=1),
            "action_mask": step.mask,
        }
        _refused(
            lambda: player.act(wide, np.random.default_rng(seed)),
            (ValueError,),
            "an observation one column wider",
        )
    return run.report()


def _builder(agent: Any, rules: Rules, params: dict[str, Any]) -> Callable[[], Any]:
    """What builds the agent for ``rules`` afresh (an agent object: itself, every time)."""
    if isinstance(agent, str):
        cls = registered_agent(agent)
        return lambda: cls(rules, **params)
    if isinstance(agent, type) or (callable(agent) and not hasattr(agent, "act")):
        return lambda: agent(rules, **params)
    if not callable(getattr(agent, "act", None)):
        raise TypeError(f"agent must be an agent object, a class or a registered name, got {agent!r}")
    if params:
        raise ValueError(f"params={params!r} are for building an agent; this one is built already")
    built = getattr(agent, "rules", rules)
    if isinstance(built, Rules) and built != rules:
        raise ValueError(f"agent {agent!r} was built for {_where(built)}, not for {_where(rules)} as asked")
    return lambda: agent


def _agent_name(agent: Any) -> str:
    if isinstance(agent, str):
        return repr(agent)
    return repr(getattr(agent, "name", None) or getattr(agent, "__name__", None) or type(agent).__name__)


def _actions_of(actions: Any, mask: np.ndarray) -> np.ndarray:
    """``actions`` checked to be a (B,) integer array for a mask of B rows (else an
    ``AssertionError`` that the ``shape and dtype`` check names)."""
    if not isinstance(actions, np.ndarray):
        raise _CheckFailedError(
            "shape and dtype", f"act returned a {type(actions).__name__}, not a numpy array"
        )
    if actions.shape != (len(mask),) or actions.dtype.kind not in "iu":
        raise _CheckFailedError(
            "shape and dtype",
            f"act returned {actions.dtype} of shape {actions.shape} for {len(mask)} "
            f"observations; expected integers of shape ({len(mask)},)",
        )
    out = (actions < 0) | (actions >= mask.shape[1])
    if out.any():
        raise _CheckFailedError(
            "legal actions", f"act returned actions {actions[out].tolist()} out of 0..{mask.shape[1] - 1}"
        )
    return actions.astype(np.int64)


def _acting(
    agent: Any, rules: Rules, rng: np.random.Generator, record: list[np.ndarray]
) -> Callable[[np.ndarray, np.ndarray, np.ndarray], np.ndarray]:
    """The ``choose`` of :func:`_play` that asks ``agent`` (every seat), checks its answer and
    records it; the slot of a row is its game and acting seat."""
    seats = rules.num_players

    def choose(observation: np.ndarray, mask: np.ndarray, player: np.ndarray) -> np.ndarray:
        slot = np.arange(len(mask)) * seats + player
        actions = _actions_of(
            agent.act({"observation": observation, "action_mask": mask, "slot": slot}, rng), mask
        )
        illegal = np.flatnonzero(mask[np.arange(len(mask)), actions] == 0)
        if len(illegal):
            row = int(illegal[0])
            raise _CheckFailedError(
                "legal actions",
                f"at decision {len(record)} it chose action {actions[row]} "
                f"({rules.action_names[actions[row]]}) in row {row}, where the mask allows "
                f"{np.flatnonzero(mask[row]).tolist()}",
            )
        record.append(actions.copy())
        return actions

    return choose
