"""Every agent on every preset: it plays a deal through a tournament, or ``make`` refuses it in
one line; and an agent refuses an observation that is not of the rules it was built for.

The matrix is every registered agent (``agents.REGISTRY``; ``ppo`` with its shipped checkpoints
and with each shipped checkpoint named) against every preset at its default player count and
at its smallest and largest.
"""

from __future__ import annotations

import importlib.util
import warnings
from pathlib import Path

import numpy as np
import pytest

import agents
from evaluation.duplicate import Tournament, TournamentConfig
from hearts_env.presets import PRESETS, make_rules, preset_names
from hearts_env.table import Table

HAS_TORCH = importlib.util.find_spec("torch") is not None
HAS_OPENSPIEL = importlib.util.find_spec("pyspiel") is not None
CHECKPOINTS = Path(agents.__file__).parent / "checkpoints"
SHIPPED = sorted(path.stem for path in CHECKPOINTS.glob("*.pt"))  # e.g. hearts-4p

PARAMS: dict[str, dict[str, object]] = {
    "ismcts": {"simulations": 4},
    "pimc": {"worlds": 2, "rollout": "fast"},
}
"""Agent parameters that keep a deal quick."""
SEARCHED_ELSEWHERE = {"pimc"}
"""Agents whose every-preset test lives in their own file (tests/test_pimc.py: a deal in every
preset it plays, the refusals), being too slow for three player counts of every preset here."""
SPECS: list[tuple[str, dict[str, object]]] = [
    (name, PARAMS.get(name, {})) for name in agents.names() if name not in SEARCHED_ELSEWHERE
]
SPECS += [("ppo", {"checkpoint": str(CHECKPOINTS / f"{stem}.pt")}) for stem in SHIPPED]
CONFIGS = [
    (preset, n)
    for preset, p in PRESETS.items()
    for n in sorted({p.default_players, p.counts[0], p.counts[-1]})
]
PLAYS = {
    "random": set(PRESETS),
    "lowest": set(PRESETS),
    "ducker": set(preset_names("hearts")),
    "strategy": set(preset_names("hearts")),
    "smear": set(preset_names("smear")),
    "pimc": set(PRESETS),
}
"""Presets each heuristic plays at every player count (the matrix checks they are exactly these)."""


def _spec(name: str, params: dict[str, object]) -> str:
    return ":".join([name, *(f"{key}={value}" for key, value in params.items())])


def _label(case: tuple[str, dict[str, object]]) -> str:
    name, params = case
    return f"{name}-{Path(str(params['checkpoint'])).stem}" if "checkpoint" in params else name


def _expected_to_play(name: str, params: dict[str, object], preset: str, n: int) -> bool | None:
    """Whether the agent should play this configuration (None: no expectation written here)."""
    if name in PLAYS:
        return preset in PLAYS[name]
    if name == "ppo":
        stem = Path(str(params["checkpoint"])).stem if "checkpoint" in params else None
        if stem and stem.startswith("universal-"):  # a universal network plays its whole family
            return PRESETS[preset].game == stem.removeprefix("universal-")
        if stem:
            return f"{preset}-{n}p" == stem
        return f"{preset}-{n}p" in SHIPPED or f"universal-{PRESETS[preset].game}" in SHIPPED
    if name == "ismcts":
        return preset == "hearts" and n == 4
    return None


@pytest.mark.parametrize("case", SPECS, ids=_label)
@pytest.mark.parametrize(("preset", "n"), CONFIGS, ids=[f"{p}-{n}" for p, n in CONFIGS])
def test_an_agent_plays_a_deal_or_is_refused_in_one_line(case, preset: str, n: int) -> None:
    name, params = case
    if name == "ppo" and not HAS_TORCH:
        pytest.skip("the ppo agent needs torch")
    expected = _expected_to_play(name, params, preset, n)
    try:
        agents.make(name, preset, n, **params)
    except ImportError as error:  # an optional library: only where the rules would be played
        assert name == "ismcts" and not HAS_OPENSPIEL and expected, error
        assert "\n" not in str(error) and "open_spiel" in str(error)
        return
    except ValueError as error:
        message = str(error)
        assert "\n" not in message and repr(name) in message and preset in message, message
        assert expected is not True, f"{name} should play {preset} with {n} players: {message}"
        return
    assert expected is not False, f"{name} {params} should refuse {preset} with {n} players"
    config = TournamentConfig(
        agents=[_spec(name, params), "random"], preset=preset, num_players=n, deals=1, tables=1, seed=n
    )
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # a checkpoint's note on rule options is not checked here
        report = Tournament(config, progress=False).run()
    assert report["deals"] == 1
    assert all(row["illegal"] == 0 for row in report["agents"]), report["agents"]


# ---------------------------------------------------------------------- what make builds
def test_make_builds_for_the_presets_default_player_count() -> None:
    for preset, p in PRESETS.items():
        assert agents.make("random", preset).rules.num_players == p.default_players, preset
    agent = agents.make("strategy", "black_maria")
    rules, obs = _observation("black_maria")
    assert agent.rules.num_players == rules.num_players == 3
    assert obs["action_mask"][np.arange(4), agent.act(obs, np.random.default_rng(0))].all()


def test_refusal_says_what_make_raises_without_building_the_agent() -> None:
    for preset, n in CONFIGS:
        rules = make_rules(preset, num_players=n)
        for name in PLAYS:
            reason = agents.refusal(name, rules)
            assert (reason is None) == (preset in PLAYS[name]), (name, preset)
            if reason is not None:
                with pytest.raises(ValueError) as error:
                    agents.from_rules(name, rules)
                assert str(error.value) == reason


# ---------------------------------------------------------------------- observations
def _observation(preset: str, n: int | None = None, batch: int = 4, seed: int = 0, **options):
    rules = make_rules(preset, num_players=n, **options)
    table = Table(rules, batch)
    table.reset(seed=seed)
    return rules, {"observation": table.observe(), "action_mask": table.action_mask()}


MISMATCHES = [
    ("strategy", "hearts", 4, "smear_partnership", 4),
    ("ducker", "hearts", 4, "hearts", 3),
    ("lowest", "black_maria", 3, "hearts", 4),
    ("random", "hearts", 4, "auction_hearts", 4),  # the same observation, more actions
    ("smear", "smear_partnership", 4, "hearts", 4),
    ("smear", "smear_partnership", 4, "smear_nine_card", 4),
    ("ppo", "hearts", 4, "black_maria", 3),
    ("ppo", "smear_partnership", 4, "hearts", 4),
]


@pytest.mark.parametrize(("name", "preset", "n", "other", "m"), MISMATCHES)
def test_an_agent_refuses_another_configurations_observation(name, preset, n, other, m) -> None:
    if name == "ppo" and not HAS_TORCH:
        pytest.skip("the ppo agent needs torch")
    agent = agents.make(name, preset, n)
    _, obs = _observation(other, m)
    with pytest.raises(ValueError, match=f"does not fit {preset} with {n} players") as error:
        agent.act(obs, np.random.default_rng(0))
    assert "\n" not in str(error.value)


def test_a_compact_observation_of_another_configuration_is_refused() -> None:
    agent = agents.make("strategy", "hearts", 4)
    table = Table(make_rules("black_maria", num_players=3), 2)
    table.reset(seed=1)
    for fmt in ("uint8", "packed"):
        main, tail = table.encode(fmt)
        with pytest.raises(ValueError, match="does not fit hearts with 4 players"):
            agent.act({"observation": main, "tail": tail, "action_mask": table.action_mask()}, None)


def test_a_mask_that_does_not_fit_is_refused() -> None:
    agent = agents.make("lowest", "hearts", 4)
    _, obs = _observation("hearts", 4)
    for mask in (obs["action_mask"][:, :-1], obs["action_mask"][:3], obs["action_mask"][0]):
        with pytest.raises(ValueError, match="action_mask of shape"):
            agent.act({**obs, "action_mask": mask}, np.random.default_rng(0))


ZERO_MASK = [(name, "hearts") for name in ("random", "lowest", "ducker", "strategy", "ismcts", "ppo")]
ZERO_MASK += [(name, "smear_partnership") for name in ("random", "lowest", "smear", "ppo")]


@pytest.mark.parametrize(("name", "preset"), ZERO_MASK)
def test_an_all_zero_mask_row_is_refused_naming_it(name: str, preset: str) -> None:
    if name == "ppo" and not HAS_TORCH:
        pytest.skip("the ppo agent needs torch")
    if name == "ismcts" and not HAS_OPENSPIEL:
        pytest.skip("the ismcts agent needs open_spiel")
    agent = agents.make(name, preset, 4, **PARAMS.get(name, {}))
    _, obs = _observation(preset, 4)
    mask = obs["action_mask"].copy()
    mask[2] = 0
    with pytest.raises(ValueError, match="action_mask row 2 has no legal action"):
        agent.act({**obs, "action_mask": mask}, np.random.default_rng(0))


# ---------------------------------------------------------------------- agent parameters
def test_ismcts_refuses_what_openspiel_does_not_play() -> None:
    cases = [
        ("partnership_hearts", {"version": "A"}, "partnerships"),
        ("partnership_hearts", {"version": "B"}, "partnerships"),
        ("cancellation_hearts", {}, "second deck"),
        ("chasse_coeur", {"num_players": 4}, "declarations"),
        ("auction_hearts", {}, "declarations"),
        ("hearts", {"first_trick_all_penalty": "redeal"}, "first_trick_all_penalty"),
        ("joker_hearts", {"num_players": 4}, "jokers"),
        ("domino_hearts", {"num_players": 4}, "stock"),
        ("hearts", {"moon": "shooter_choice"}, "moon"),
        ("black_maria", {}, "4 players"),
        ("smear_partnership", {}, "Hearts-family"),
    ]
    for preset, options, what in cases:
        rules = make_rules(preset, **options)
        reason = agents.refusal("ismcts", rules)
        assert reason is not None and what in reason and "OpenSpiel" in reason, (preset, options, reason)
        with pytest.raises(ValueError, match="agent 'ismcts' cannot play") as error:
            agents.from_rules("ismcts", rules)  # before OpenSpiel is imported: no skip needed
        assert "\n" not in str(error.value)
    assert agents.refusal("ismcts", make_rules("hearts")) is None
    assert agents.refusal("ismcts", make_rules("hearts", card_points={"JD": -10})) is None


def test_ismcts_parameters_are_checked() -> None:
    for params, kind in (
        ({"simulations": 0}, ValueError),
        ({"simulations": -5}, ValueError),
        ({"simulations": 2.5}, TypeError),
        ({"simulations": "100"}, TypeError),
        ({"simulations": True}, TypeError),
        ({"rollouts": 0}, ValueError),
        ({"uct_c": "wide"}, TypeError),
        ({"uct_c": 0.0}, ValueError),
    ):
        with pytest.raises(kind, match=f"ismcts parameter {next(iter(params))}"):
            agents.make("ismcts", **params)


@pytest.mark.skipif(not HAS_TORCH, reason="the ppo agent needs torch")
def test_ppo_parameters_are_type_checked() -> None:
    with pytest.raises(TypeError, match="ppo parameter checkpoint"):
        agents.make("ppo", checkpoint=123)
    with pytest.raises(TypeError, match="ppo parameter greedy"):
        agents.make("ppo", greedy="yes")


@pytest.mark.skipif(not HAS_TORCH, reason="the ppo agent needs torch")
def test_a_ppo_checkpoint_plays_only_its_configuration() -> None:
    hearts = str(CHECKPOINTS / "hearts-4p.pt")
    # black_maria with 4 players has the standard observation, so only the checkpoint's record tells.
    for preset, n in (("black_maria", 4), ("omnibus", 4), ("hearts", 3)):
        with pytest.raises(ValueError, match=f"agent 'ppo' cannot play {preset} with {n} players") as error:
            agents.make("ppo", preset, n, checkpoint=hearts)
        assert "\n" not in str(error.value) and "hearts with 4 players" in str(error.value)
    with pytest.raises(ValueError, match="no PPO checkpoint ships for omnibus with 5 players") as missing:
        agents.make("ppo", "omnibus", 5, network="specialist")
    assert isinstance(missing.value, FileNotFoundError)  # as before, for callers that catch it


# ---------------------------------------------------------------------- family defaults
def test_family_defaults_name_agents_that_play_the_whole_family() -> None:
    hearts = agents.family_defaults("hearts")
    # Today's Hearts defaults (training's league and evaluation, the tournament's agents).
    assert hearts.heuristic == hearts.teacher == "strategy"
    assert hearts.opponents == ("strategy", "ducker")
    assert hearts.eval_opponents == ("strategy", "random")
    assert hearts.tournament == ("strategy", "ducker", "lowest", "random")
    smear = agents.family_defaults("smear")
    assert smear.heuristic == smear.teacher == "smear"
    assert smear.tournament == ("smear", "lowest", "random")
    for game in ("hearts", "smear"):
        d = agents.family_defaults(game)
        specs = {d.heuristic, d.teacher, *d.opponents, *d.eval_opponents, *d.tournament}
        for preset, n in CONFIGS:
            rules = make_rules(preset, num_players=n)
            if rules.game == game:
                assert all(agents.refusal(agents.parse_spec(s)[0], rules) is None for s in specs), preset
    with pytest.raises(ValueError, match="unknown game family"):
        agents.family_defaults("bridge")
