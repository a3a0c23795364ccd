"""How the samples beside this file were made (run once, with the code of their commit; kept as
provenance, not run by the tests): files in the formats of December 2026 that later versions must
still load (tests/test_saved_formats.py).

    hearts-env train --preset hearts --total-decisions 3000 --num-games 8 --rollout-steps 16 \
        --hidden 8,8 --imitation-decisions 0 --eval-every 0 --run-dir run_h --seed 3
    hearts-env train --preset smear_partnership (the same flags) --run-dir run_s
    hearts-env tournament --preset hearts --agents ppo:checkpoint=run_h/policy.pt,strategy,random,strategy \
        --deals 8 --seed 4 --json tournament_hearts.json
    hearts-env tournament --preset smear_partnership \
        --agents ppo:checkpoint=run_s/policy.pt,smear,smear,random \
        --deals 8 --seed 4 --json tournament_smear.json
    hearts-env leaderboard --agents random,lowest --presets hearts,smear_widow --deals 4 --tables 4 \
        --json leaderboard.json
    python tests/data/formats_2026_12/make_samples.py   # the table states and expected.json
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import numpy as np
import torch

from agents import make
from hearts_env import Table, make_rules
from training.checkpoint import pack_table

HERE = Path(__file__).parent
STATES = {
    "hearts": ("hearts", 20, {}),
    "smear_widow": ("smear_widow", 9, {}),
    "black_maria_3p_game": ("black_maria", 15, {"num_players": 3, "episode": "game"}),
}


def digest(array: np.ndarray) -> str:
    return hashlib.sha256(np.ascontiguousarray(array).tobytes()).hexdigest()[:16]


def played(table: Table, steps: int, seed: int) -> list[int]:
    """Random legal actions for ``steps`` steps; the actions taken."""
    rng = np.random.default_rng(seed)
    taken = []
    for _ in range(steps):
        actions = np.array([rng.choice(np.flatnonzero(m)) if m.any() else 0 for m in table.action_mask()])
        taken += actions.tolist()
        table.step(actions)
    return taken


def main() -> None:
    expected: dict[str, object] = {"commit": sys.argv[1] if len(sys.argv) > 1 else "", "states": {}}
    for name, (preset, steps, options) in STATES.items():
        table = Table(make_rules(preset, **options), num_games=3)
        table.reset(seed=7)
        played(table, steps, 7)
        torch.save(pack_table(table), HERE / f"state_{name}.pt")
        observation, mask = table.observe(), table.action_mask()
        played(table, 6, 11)
        expected["states"][name] = {
            "preset": preset, "options": options, "observation": digest(observation), "mask": digest(mask),
            "after": digest(table.observe()), "totals": table.totals.tolist(),
        }
    for family, preset in (("hearts", "hearts"), ("smear", "smear_partnership")):
        rules = make_rules(preset)
        table = Table(rules, num_games=4)
        table.reset(seed=5)
        agent = make("ppo", preset, checkpoint=HERE / f"policy_{family}.pt")
        observation = {"observation": table.observe(), "action_mask": table.action_mask()}
        actions = agent.act(observation, np.random.default_rng(0))
        expected[f"policy_{family}"] = {"preset": preset, "actions": actions.tolist()}
    (HERE / "expected.json").write_text(json.dumps(expected, indent=1) + "\n")


if __name__ == "__main__":
    main()
