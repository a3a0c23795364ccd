"""The ``pimc`` search agent: legal in every configuration it plays, reproducible from its
generator, right where one card is plainly best, with the shipped specialist or else the family's
heuristic by default, timed
by tournaments (Smear's own: tests/test_smear_search.py). (Its strength is measured by the
tournaments of experiments/pimc-against-heuristics/pimc_table.py.)"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import agents
from evaluation.duplicate import Tournament, TournamentConfig
from hearts_env import Position, Table, make_rules
from hearts_env.presets import preset_names

PLAYED = preset_names("hearts")
assert "cancellation_hearts" in PLAYED  # two decks too


def _play_deal(rules, pimc, seed: int) -> list[int]:
    table = Table(rules, num_games=2)
    table.reset(seed=seed)
    other = agents.from_rules("random", rules)
    rng = np.random.default_rng(seed)
    chosen = []
    while not table.deal_over.all():
        obs = {"observation": table.observe(), "action_mask": table.action_mask()}
        live = ~table.deal_over
        actions = np.zeros(2, np.int64)
        rows = np.flatnonzero(live)
        actions[rows] = other.act({k: v[rows] for k, v in obs.items()}, rng)
        mine = np.flatnonzero(live & (table.current_player == 0))
        if len(mine):
            actions[mine] = pimc.act({k: v[mine] for k, v in obs.items()}, rng)
            chosen += actions[mine].tolist()
        table.step(actions)  # raises on an illegal action
    return chosen


@pytest.mark.parametrize("name", PLAYED)
def test_pimc_plays_every_preset(name: str) -> None:
    rules = make_rules(name)
    pimc = agents.from_rules("pimc", rules, worlds=3)
    assert _play_deal(rules, pimc, 1)
    assert pimc.decisions > 0 and pimc.seconds > 0


def test_pimc_is_reproducible_from_its_generator() -> None:
    rules = make_rules("hearts")
    one = _play_deal(rules, agents.from_rules("pimc", rules, worlds=6, rollout="random"), 5)
    two = _play_deal(rules, agents.from_rules("pimc", rules, worlds=6, rollout="random"), 5)
    assert one == two


def test_pimc_dumps_the_queen_on_the_king() -> None:
    """Seat 0 holds Q♠ and A♠ with K♠ led: Q♠ now goes to the king's holder; A♠ wins the
    trick, and seat 0, leading Q♠ into three hands without a spade, takes 13 points."""
    rules = make_rules("hearts")
    hands = [["QS", "AS"], ["2H", "3H"], ["4H", "5H"], ["6H"]]
    trick = ["KS"]
    held = {c for h in hands for c in h} | set(trick)
    rest = [c for c in (f"{r}{s}" for s in "CDHS" for r in "23456789TJQKA") if c not in held]
    played = [rest[i::4] for i in range(4)]
    played[3].append("KS")
    hearts = [c for c in rest if c.endswith("H")]  # seat 1 took them: no moon is left
    taken = [[], hearts, [], [c for c in rest if c not in hearts]]
    position = Position(
        hands=hands, played=played, taken=taken, tricks_won=[0, 2, 0, 9], trick=trick, leader=3
    )
    table = Table(rules)
    table.set_position(position)
    obs = {"observation": table.observe(), "action_mask": table.action_mask()}
    for rollout in ("random", "ducker", "fast"):
        pimc = agents.from_rules("pimc", rules, worlds=8, rollout=rollout)
        assert pimc.act(obs, np.random.default_rng(0))[0] == rules.action_names.index("QS")


def test_pimc_margin_keeps_the_fallback_card_unless_the_gain_is_clear() -> None:
    """``margin``: an infinite margin plays the fallback's card everywhere (a finite one still
    overrules it where the gain is the same in every world); 0 (the best mean) leaves it in some
    position of the first tricks of a few deals (the search does choose)."""
    rules = make_rules("black_lady_foster")
    strategy = agents.from_rules("strategy", rules)
    kept = agents.from_rules("pimc", rules, worlds=2, margin=float("inf"))
    searched = agents.from_rules("pimc", rules, worlds=2, margin=0)
    table = Table(rules, num_games=3)
    table.reset(seed=3)
    rng = np.random.default_rng(3)
    overruled = 0
    for _ in range(28):  # the passes and the first tricks
        live = np.flatnonzero(~table.deal_over)
        obs = {"observation": table.observe()[live], "action_mask": table.action_mask()[live]}
        base = strategy.act(obs, np.random.default_rng(0))
        assert (kept.act(obs, np.random.default_rng(0)) == base).all()
        overruled += int((searched.act(obs, np.random.default_rng(0)) != base).sum())
        actions = np.zeros(table.num_games, np.int64)
        actions[live] = [rng.choice(np.flatnonzero(row)) for row in obs["action_mask"]]
        table.step(actions)
    assert overruled > 0


@pytest.mark.parametrize(
    ("preset", "num_players", "player"),
    [
        ("hearts", 4, "ppo:network=specialist"),
        ("black_maria", 3, "ppo:network=specialist"),
        ("smear_partnership", 4, "ppo:network=specialist"),
        ("hearts", 5, "strategy"),
        ("omnibus", 4, "strategy"),
        ("black_maria", 4, "strategy"),
        ("smear_widow", 4, "smear"),
    ],
)
def test_pimc_default_is_the_specialist_else_heuristic(preset: str, num_players: int, player: str) -> None:
    pimc = agents.make("pimc", preset, num_players)
    assert pimc.margin == 1.0
    assert pimc.rollout.replace(";", ":") == pimc.fallback_spec == player
    assert pimc.fallback.name == player.split(":")[0]
    if player.startswith("ppo"):
        assert pimc.rollout_agent.network == pimc.fallback.network == "specialist"
    heuristic = agents.make("pimc", preset, num_players, rollout="heuristic", fallback="heuristic")
    assert heuristic.rollout == heuristic.fallback_spec == ("smear" if "smear" in preset else "strategy")


def test_pimc_without_torch_plays_the_heuristic_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    import importlib.util

    find_spec = importlib.util.find_spec
    hide_torch = lambda name, *rest: None if name == "torch" else find_spec(name, *rest)  # noqa: E731
    monkeypatch.setattr(importlib.util, "find_spec", hide_torch)
    with pytest.warns(UserWarning, match="torch is not installed: the rollout is 'strategy'"):
        pimc = agents.make("pimc", "hearts", 4, fallback="heuristic")
    assert pimc.rollout == "strategy"
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no specialist ships for 5 players: nothing to say
        assert agents.make("pimc", "hearts", 5).rollout == "strategy"


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"worlds": 0}, "worlds must be a positive int"),
        ({"rollout": "nope"}, "nope"),
        ({"rollout": ""}, "rollout must be a name or an agent spec"),
        ({"fallback": 3}, "fallback must be a name or an agent spec"),
        ({"margin": -1}, "margin must be a number of at least 0"),
        ({"margin": "wide"}, "margin must be a number"),
    ],
)
def test_pimc_parameters_are_checked(params: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        agents.make("pimc", "hearts", **params)


def test_a_tournament_reports_the_move_time() -> None:
    config = TournamentConfig(agents=["pimc:worlds=2", "random"], deals=4, tables=2, seed=3)
    report = Tournament(config, progress=False).run()
    times = {row["name"]: row for row in report["move_times"]}
    # half the seats of 4 deals x 2 seatings, 64 decisions a deal (12 passes, 52 cards) each
    assert times["pimc:worlds=2"]["decisions"] == times["random"]["decisions"] == 4 * 2 * 64 // 2
    assert times["pimc:worlds=2"]["ms_per_decision"] > times["random"]["ms_per_decision"] > 0


def test_agent_rollouts_leave_the_filler_games_out() -> None:
    """The table is a power of two; the games past the searched ones only fill it: the rollout
    agent never sees them, and the card chosen is legal."""
    rules = make_rules("omnibus")
    pimc = agents.from_rules("pimc", rules, worlds=3, rollout="strategy")
    seen: list[int] = []
    act = pimc.rollout_agent.act

    def counting(obs, rng):
        seen.append(len(obs["observation"]))
        return act(obs, rng)

    pimc.rollout_agent.act = counting
    table = Table(rules, num_games=1)
    table.reset(seed=2)
    strategy = agents.from_rules("strategy", rules)
    rng = np.random.default_rng(2)
    playing = rules.phases.index("playing")
    while True:
        obs = {"observation": table.observe(), "action_mask": table.action_mask()}
        if obs["action_mask"][0, : rules.card_slots].sum() > 1 and pimc.view(obs, "phase")[0, playing] > 0.5:
            break
        table.step(strategy.act(obs, rng))
    searched = 3 * int(obs["action_mask"][0, : rules.card_slots].sum())
    card = pimc.act(obs, rng)[0]
    assert obs["action_mask"][0, card]
    assert seen and max(seen) == searched < pimc._table(searched).num_games
