"""The ``smear`` heuristic (and ``lowest``, ``random`` at the Smear table): legal everywhere,
and stronger than ``random`` (experiments/smear-heuristic-margin/smear_strength.py measures every
configuration)."""

from __future__ import annotations

import numpy as np
import pytest

import agents
from hearts_env import make_rules
from hearts_env.core.cards import parse_cards
from hearts_env.presets import all_configs, get_preset
from hearts_env.table import Table

SMEAR_CONFIGS = [(preset, n) for preset, n in all_configs() if preset.startswith("smear")]


def observe(table: Table) -> dict[str, np.ndarray]:
    return {"observation": table.observe(), "action_mask": table.action_mask()}


@pytest.mark.parametrize(("preset", "num_players"), SMEAR_CONFIGS, ids=[f"{p}-{n}" for p, n in SMEAR_CONFIGS])
def test_smear_lowest_and_random_play_only_legal_actions(preset: str, num_players: int) -> None:
    rules = make_rules(preset, num_players=num_players)
    players = [agents.from_rules(name, rules) for name in ("smear", "lowest", "random")]
    table = Table(rules, num_games=16)
    table.reset(seed=11)
    rng = np.random.default_rng(0)
    rows = np.arange(table.num_games)
    for step in range(300):
        obs = observe(table)
        mask = obs["action_mask"]
        live = ~table.deal_over
        chosen = [agent.act(obs, rng) for agent in players]
        for agent, actions in zip(players, chosen):
            assert actions.shape == (table.num_games,)
            assert (mask[rows[live], actions[live]] == 1).all(), f"{agent.name} illegal at step {step}"
        # wander: each game follows one of the three agents
        actions = np.choose(rows % 3, chosen)
        result = table.step(actions)
        if result.deal_ended.any():
            table.redeal(np.flatnonzero(table.deal_over))


def test_every_smear_reading_gets_legal_actions() -> None:
    for preset, n in SMEAR_CONFIGS:
        for reading in get_preset(preset).readings:
            try:
                rules = make_rules(preset, num_players=n, reading=reading)
            except ValueError:  # e.g. no jokers leave too few cards for 6 nine-card hands
                continue
            players = [agents.from_rules(name, rules) for name in ("smear", "lowest")]
            table = Table(rules, num_games=8)
            table.reset(seed=3)
            rng = np.random.default_rng(0)
            rows = np.arange(8)
            for _ in range(60):
                obs = observe(table)
                live = ~table.deal_over
                chosen = [agent.act(obs, rng) for agent in players]
                for agent, actions in zip(players, chosen):
                    legal = obs["action_mask"][rows[live], actions[live]] == 1
                    assert legal.all(), (agent.name, preset, reading)
                table.step(np.choose(rows % 2, chosen))
                if table.deal_over.any():
                    table.redeal(np.flatnonzero(table.deal_over))


def side_margin(rules, hero_seat: int, deals: int, seed: int) -> np.ndarray:
    """Per deal: the ``smear`` side's deal points minus the other side's, ``random`` opposing."""
    hero, other = agents.from_rules("smear", rules), agents.from_rules("random", rules)
    team_of = np.array(rules.team_of)
    is_hero = team_of == team_of[hero_seat]
    villain = int(np.flatnonzero(~is_hero)[0])
    table = Table(rules, num_games=100)
    table.reset(seed=seed)
    rng = np.random.default_rng(seed)
    out: list[np.ndarray] = []
    while sum(len(x) for x in out) < deals:
        obs = observe(table)
        actions = np.where(is_hero[table.current_player], hero.act(obs, rng), other.act(obs, rng))
        result = table.step(actions)
        ended = np.flatnonzero(result.deal_ended)
        if len(ended):
            points = table.deal_points[ended]
            out.append(points[:, hero_seat] - points[:, villain])
            table.redeal(np.flatnonzero(table.deal_over))
    return np.concatenate(out)[:deals]


def test_smear_beats_random_in_partnership_smear() -> None:
    rules = make_rules("smear_partnership", num_players=4)
    diff = (side_margin(rules, 0, 300, seed=7) + side_margin(rules, 1, 300, seed=7)) / 2
    half = 1.96 * diff.std(ddof=1) / np.sqrt(len(diff))
    assert diff.mean() - half > 5.0, (diff.mean(), half)  # about +11.5 a deal over 2,000 deals


def test_smear_agent_bids_names_and_passes_by_its_estimate() -> None:
    rules = make_rules("smear_partnership", num_players=4)
    agent = agents.from_rules("smear", rules)
    hand = np.zeros((2, rules.card_slots), bool)
    hand[0, parse_cards("AS KS JS 3S 2S TS JC JK1 JK2 TD".split())] = True  # spades, every point card
    hand[1, parse_cards("4C 6C 5D 7D 4H 8H 6S 8C 9D 7H".split())] = True
    est = agent.estimates(hand)
    assert est[0].argmax() == 3 and est[0, 3] > 7
    assert est[1].max() < est[0].max() - 4


def test_smear_agent_is_for_smear_rules_only() -> None:
    with pytest.raises(ValueError, match="Smear"):
        agents.make("smear", "hearts")
