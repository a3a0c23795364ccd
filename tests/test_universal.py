"""The universal layout (:mod:`hearts_env.universal`): every configuration's observation, mask
and actions land where the family's vocabulary says, by piece name, within one space."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import hearts_env
from hearts_env.games import family
from hearts_env.observation import layout as native_layout
from hearts_env.presets import all_configs, make_rules
from hearts_env.table import Table
from hearts_env.universal import CONSTANT_PIECES, configurations, universal_space, universal_view, vocabulary

CONFIGS = all_configs()


def _random_positions(rules, games=4, steps=60, seed=0):
    """(observations, masks) of the acting seats at every step of random legal play."""
    table = Table(rules, games)
    table.reset(seed=seed)
    rng = np.random.default_rng(seed)
    seen = []
    for _ in range(steps):
        obs, mask = table.observe(), table.action_mask()
        seen.append((obs.copy(), mask.copy()))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in mask])
        result = table.step(actions)
        if result.deal_ended.any():
            table.redeal(np.flatnonzero(result.deal_ended))
    return seen


@pytest.mark.parametrize("preset,n", CONFIGS, ids=[f"{p}-{n}" for p, n in CONFIGS])
def test_every_piece_lands_by_name(preset, n):
    rules = make_rules(preset, num_players=n)
    view, vocab = universal_view(rules), vocabulary(rules.game)
    record = family(rules)
    axes, names = record.piece_axes, record.axis_names(rules)
    lay = native_layout(rules)
    space = universal_space(vocab)
    for obs, mask in _random_positions(rules):
        u = view.observation(obs)
        assert u.shape == (len(obs), vocab.size) and u.dtype == np.float32
        m = view.mask(mask)
        for row in range(len(u)):
            assert space.contains({"observation": u[row], "action_mask": m[row]})
        np.testing.assert_array_equal(view.native_observation(u), obs)
        covered = np.zeros(vocab.size, bool)
        for piece, shape in lay.pieces:
            big = vocab.layout.view(u, piece)  # (B, *universal shape)
            picks = [slice(None)]
            for kind, size in zip(axes[piece], shape):
                if kind in names:
                    picks.append(np.array([vocab.axes[kind].index(x) for x in names[kind]]))
                else:
                    picks.append(np.arange(size))
            grid = np.ix_(np.arange(len(u)), *picks[1:])
            np.testing.assert_array_equal(big[grid], lay.view(obs, piece), err_msg=piece)
            region = np.zeros(vocab.layout.shape(piece), bool)
            region[np.ix_(*picks[1:])] = True
            covered[vocab.layout.slices[piece]] = region.ravel()
        for piece in CONSTANT_PIECES:
            covered[vocab.layout.slices[piece]] = True
        assert not u[:, ~covered].any(), "an entry outside the configuration's pieces is not 0"
        seats = vocab.layout.view(u, "seats")
        np.testing.assert_array_equal(seats, np.arange(vocab.players)[None, :].repeat(len(u), 0) < n)
        deck = vocab.layout.view(u, "deck")[0]
        assert sorted(np.flatnonzero(deck)) == sorted(set(rules.deck.cards))
        for row in range(len(u)):
            legal = np.flatnonzero(m[row])
            assert [vocab.actions[a] for a in legal] == [
                rules.action_names[a] for a in np.flatnonzero(mask[row])
            ]
            np.testing.assert_array_equal(view.action(legal), np.flatnonzero(mask[row]))


@pytest.mark.parametrize("game", ["hearts", "smear"])
def test_one_space_for_the_family(game):
    """Every configuration (readings and versions too) has the family's shape, and the constant
    pieces with the card values tell configurations with different rules apart."""
    vocab = vocabulary(game)
    rules_list = configurations(game)
    assert len(rules_list) > len(all_configs(game))
    seen: dict[bytes, object] = {}
    for rules in rules_list:
        view = universal_view(rules)
        assert view.base.shape == (vocab.size,)
        assert (vocab.low <= view.base).all() and (view.base <= vocab.high).all()
        low, high = view.native_bounds()
        assert (vocab.low[view.index] <= low).all() and (high <= vocab.high[view.index]).all()
        key = view.base.tobytes() + np.array(rules.values().get("card_points", ())).tobytes()
        # not told apart: the target (the scores are scaled by it) and how long an episode or game lasts
        plain = dataclasses.replace(rules, preset="x", target_score=1, max_deals=None)
        if key in seen:
            assert seen[key] == plain, f"{rules.preset}-{rules.num_players} looks like another configuration"
        seen[key] = plain


def test_actions_are_checked():
    view = universal_view(make_rules("hearts"))
    vocab = view.vocabulary
    with pytest.raises(ValueError, match="suit:C"):
        view.action(vocab.actions.index("suit:C"))
    with pytest.raises(ValueError, match="out of range"):
        view.action(vocab.num_actions)
    with pytest.raises(ValueError, match="expected observations of length"):
        view.observation(np.zeros((1, 3), np.float32))


def test_envs_take_the_layout_option():
    env = hearts_env.env("auction_hearts", layout="universal")
    env.reset(seed=3)
    vocab = vocabulary("hearts")
    obs = env.observe(env.agent_selection)
    assert obs["observation"].shape == (vocab.size,) and obs["action_mask"].shape == (vocab.num_actions,)
    assert env.unwrapped.action_names == vocab.actions
    with pytest.raises(ValueError, match="moon:add.*is not an action of auction_hearts"):
        env.step(vocab.actions.index("moon:add"))
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    env.step(legal)  # a legal universal action plays
    with pytest.raises(ValueError, match="layout must be one of"):
        hearts_env.env("hearts", layout="wide")
    with pytest.raises(ValueError, match="float32 only"):
        hearts_env.vector.HeartsVectorEnv("hearts", num_envs=2, layout="universal", obs_format="packed")
    vec = hearts_env.vector.HeartsVectorEnv("smear_nine_card", num_envs=3, layout="universal", seed=1)
    out, _ = vec.reset()
    smear = vocabulary("smear")
    assert out["observation"].shape == (3, smear.size) and vec.single_action_space.n == smear.num_actions
    with pytest.raises(ValueError, match="is not an action of smear_nine_card"):
        absent = next(i for i, name in enumerate(smear.actions) if name not in vec.rules.action_names)
        vec.step(np.full(3, absent))
    with pytest.raises(ValueError, match="out of range"):
        vec.step(np.full(3, smear.num_actions))
    out, *_ = vec.step_random()
    assert vec.single_observation_space.contains(
        {"observation": out["observation"][0], "action_mask": out["action_mask"][0]}
    )
    vec.close()
