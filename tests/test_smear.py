"""Smear through the public surfaces: the hand-written scripts (tests/smear_scripts.py) replayed
on the fast engine, clear errors for malformed input, infos and rewards."""

from __future__ import annotations

import numpy as np
import pytest

import hearts_env
from hearts_env.core.phases import PHASE_NAMES
from hearts_env.games.smear.options import SMEAR_CATEGORIES
from hearts_env.presets import make_rules
from hearts_env.table import Table
from tests.smear_scripts import SCRIPTS, SmearScript


def _table(script: SmearScript) -> tuple[Table, list[str]]:
    rules = make_rules(script.preset, script.num_players, script.reading, **script.options)
    table = Table(rules, 1)
    widow = rules.widow or 0
    undealt = script.undealt_cards
    options = {"hands": script.hand_cards, "dealer": script.dealer}
    if widow:
        options["widow"] = undealt[:widow]
    if undealt[widow:]:
        options["stock"] = undealt[widow:]
    table.reset(seed=0, options=options)
    return table, list(rules.action_names)


def _phase(table: Table) -> str:
    return PHASE_NAMES.get(int(table.state.phase[0]), "done")


@pytest.mark.parametrize("script", SCRIPTS, ids=[s.name for s in SCRIPTS])
def test_scripts_on_the_engine(script: SmearScript) -> None:
    table, names = _table(script)
    rules = table.rules
    if script.games:  # the game checks start from given totals
        before = script.games[0][0]
        table.restore_games(np.array([[before[t] for t in rules.team_of]]), 0, False)
    winners = []
    for step, name in enumerate(script.actions):
        if step in script.seats:
            assert int(table.current_player[0]) == script.seats[step], (step, name)
        if step in script.legal:
            legal = {names[a] for a in np.flatnonzero(table.action_mask()[0])}
            assert legal == set(script.legal[step].split()), (step, sorted(legal))
        if step in script.phases:
            assert _phase(table) == script.phases[step], step
        for _, bad, _ in (e for e in script.errors if e[0] == step):
            saved = table.state_dict()
            with pytest.raises(ValueError, match=r"seat \d"):
                table.step(np.array([names.index(bad)]))
            after = table.state_dict()
            assert all(np.array_equal(saved["fields"][k], after["fields"][k]) for k in saved["fields"])
        tricks = int(table.trick_number[0])
        table.step(np.array([names.index(name)]))
        if int(table.trick_number[0]) > tricks:
            winners.append(int(table.state.last_winner[0]))
    assert bool(table.deal_over[0]), "the script must play the deal to its end"
    info = table.game_info([0])
    if script.tricks is not None:
        assert tuple(winners) == tuple(script.tricks)
    assert bool(info["cancelled"][0]) == script.cancelled
    first = [team[0] for team in rules.teams] if rules.teams else list(range(rules.num_players))
    if script.pitcher is not None:
        assert int(info["pitcher"][0]) == script.pitcher
    if script.bid is not None:
        assert int(info["bid"][0]) == script.bid
    if script.made is not None:
        assert bool(info["made"][0]) == script.made
    if script.categories is not None:
        assert dict(zip(rules.categories, info["categories"][0].tolist())) == dict(script.categories)
    if script.side_points is not None:
        assert [int(info["deal_points"][0, s]) for s in first] == list(script.side_points)
    if script.made_points is not None:
        assert [int(info["made_points"][0, s]) for s in first] == list(script.made_points)
    if script.games:
        _, after, over, winner = script.games[0]
        assert [int(info["total_points"][0, s]) for s in first] == list(after)
        assert bool(info["game_over"][0]) == over
        assert int(info["winner"][0]) == (-1 if winner is None else winner)


# ---------------------------------------------------------------------- malformed input
def _play_to(env: object, phase: str, rng: np.random.Generator, bid: str | None = None) -> None:
    """Random legal actions until the acting agent is asked for ``phase``."""
    names = env.unwrapped.action_names  # type: ignore[attr-defined]
    for _ in range(200):
        if env.unwrapped.table.state.phase[0] in [k for k, v in PHASE_NAMES.items() if v == phase]:  # type: ignore[attr-defined]
            return
        mask = env.observe(env.agent_selection)["action_mask"]  # type: ignore[attr-defined]
        legal = np.flatnonzero(mask)
        wanted = [a for a in legal if names[a] == bid]
        env.step(int(wanted[0] if wanted else rng.choice(legal)))  # type: ignore[attr-defined]
    raise AssertionError(f"never reached {phase}")


def test_bad_bids_and_trumps_raise_naming_the_reason() -> None:
    env = hearts_env.env("smear_partnership")
    env.reset(seed=1)
    names = env.unwrapped.action_names
    env.step(names.index("bid:5"))  # eldest bids 5
    agent = env.agent_selection
    with pytest.raises(ValueError, match=r"bid:3.*must beat the highest bid so far \(5\)"):
        env.step(names.index("bid:3"))
    with pytest.raises(ValueError, match="trumps are named by the pitcher"):
        env.step(names.index("suit:H"))
    with pytest.raises(ValueError, match="out of range"):
        env.step(len(names))
    assert env.agent_selection == agent  # nothing changed
    for _ in range(3):
        env.step(names.index("pass"))
    with pytest.raises(ValueError, match="bids are over: the pitcher names trumps"):
        env.step(names.index("bid:7"))


def test_the_dealer_is_forced_and_a_protected_trump_cannot_be_discarded() -> None:
    env = hearts_env.env("smear_partnership")
    env.reset(seed=2)
    names = env.unwrapped.action_names
    for _ in range(3):
        env.step(names.index("pass"))
    mask = env.observe(env.agent_selection)["action_mask"]
    assert [names[a] for a in np.flatnonzero(mask)] == ["bid:1"]
    with pytest.raises(ValueError, match="dealer must bid 1"):
        env.step(names.index("pass"))
    env.step(names.index("bid:1"))
    env.step(names.index("suit:S"))
    table = env.unwrapped.table
    seat = int(table.current_player[0])
    hand = int(table.state.hands[0, seat])
    trump_cards = [*range(39, 52), hearts_env.parse_card("JC"), 52, 53]  # spades, the jick, the jokers
    trumps = [c for c in trump_cards if hand >> c & 1]
    mask = env.observe(env.agent_selection)["action_mask"]
    if len(trumps) <= 6:  # trumps are protected: none may be discarded
        assert not mask[trumps].any()
        with pytest.raises(ValueError, match="trump may be discarded only when holding more than 6"):
            env.step(trumps[0])
    else:  # more than six trumps: any card may go
        assert mask[trumps].all()


def test_a_fixed_deal_must_complete_the_deck() -> None:
    env = hearts_env.env("smear_nine_card")
    deck = [hearts_env.card_name(c) for c in env.unwrapped.rules.deck.cards]
    hands = [deck[9 * i : 9 * i + 9] for i in range(4)]
    stock = deck[36:]
    env.reset(options={"hands": hands, "stock": stock})  # complete: fine
    with pytest.raises(ValueError, match="does not complete the deck"):
        env.reset(options={"hands": hands, "stock": stock[:-1]})
    with pytest.raises(ValueError, match="repeat"):
        env.reset(options={"hands": hands, "stock": stock[:-1] + stock[:1]})
    with pytest.raises(ValueError, match="dealt twice"):
        env.reset(options={"hands": [hands[0], hands[0], hands[2], hands[3]], "stock": stock})
    widow_game = hearts_env.env("smear_widow")
    cards = [hearts_env.card_name(c) for c in widow_game.unwrapped.rules.deck.cards]
    with pytest.raises(ValueError, match="widow must hold 4"):
        widow_game.reset(
            options={"hands": [cards[9 * i : 9 * i + 9] for i in range(4)], "widow": cards[36:39]}
        )


def test_smear_options_are_checked() -> None:
    with pytest.raises(ValueError, match="min_bid"):
        make_rules("smear_partnership", min_bid=11)
    with pytest.raises(ValueError, match="smear_deal"):
        make_rules("smear_partnership", smear_deal="stok")
    with pytest.raises(ValueError, match="jick is a Smear option; hearts is a Hearts preset"):
        make_rules("hearts", jick=False)
    with pytest.raises(ValueError, match="is for 4, 6, 8 players"):
        make_rules("smear_five_point", 5)
    with pytest.raises(ValueError, match="joker1"):
        make_rules("smear_partnership", jokers=0, categories=("high", "joker1"))


# ---------------------------------------------------------------------- rewards and infos
def test_infos_and_team_rewards_at_the_end_of_a_deal() -> None:
    env = hearts_env.env("smear_partnership")
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    rewards = {}
    for agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            rewards[agent] = reward
            last = info
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    smear = last["smear"]
    assert set(smear["categories"]) == set(env.unwrapped.rules.categories)
    side = env.unwrapped.rules.team_of[smear["pitcher"]]
    assert smear["made"] == (smear["side_points"][side] >= 0)
    assert rewards["player_0"] == rewards["player_2"] == smear["side_points"][0]
    assert rewards["player_1"] == rewards["player_3"] == smear["side_points"][1]
    game_over = last["game_over"]
    assert smear["winner"] in (-1, 0, 1)
    assert smear["winner"] == -1 or game_over  # a side wins only when the game is over
    made = smear["made_points"]
    scored = {v for v in smear["categories"].values() if v >= 0}
    assert sum(made) == sum(
        SMEAR_CATEGORIES[c] for c, v in smear["categories"].items() if v in scored
    )


def test_zero_sum_reward_is_own_side_minus_the_others_mean() -> None:
    rules = make_rules("smear_partnership", 6)
    table = Table(rules, 64, reward="zero_sum")
    table.reset(seed=3)
    rng = np.random.default_rng(3)
    for _ in range(400):
        mask = table.action_mask()
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in mask])
        result = table.step(actions)
        rows = np.flatnonzero(result.deal_ended)
        if len(rows):
            points = table.deal_points[rows][:, [0, 1, 2]].astype(float)  # one seat of each side
            want = points - (points.sum(axis=1, keepdims=True) - points) / 2
            np.testing.assert_allclose(result.rewards[rows][:, [0, 1, 2]], want)
            np.testing.assert_allclose(result.rewards[rows][:, [3, 4, 5]], want)
            table.redeal(np.flatnonzero(table.deal_over))


# ---------------------------------------------------------------------- agents
@pytest.mark.parametrize(("preset", "players"), __import__("hearts_env").all_configs("smear"))
def test_random_lowest_and_smear_play_only_legal_actions(preset: str, players: int) -> None:
    import agents

    rules = make_rules(preset, players)
    table = Table(rules, 32)
    table.reset(seed=players)
    rng = np.random.default_rng(players)
    players_ = [agents.from_rules(name, rules) for name in ("random", "lowest", "smear")]
    for step in range(150):
        obs = {"observation": table.observe(), "action_mask": table.action_mask()}
        live = ~table.deal_over
        for agent in players_:
            actions = agent.act(obs, rng)
            assert (obs["action_mask"][np.arange(32), actions][live] == 1).all(), agent
        table.step(players_[step % 3].act(obs, rng))
        if table.deal_over.any():
            table.redeal(np.flatnonzero(table.deal_over))
