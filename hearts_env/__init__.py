"""hearts-env: a batched NumPy engine for the Hearts family, as PettingZoo and Gymnasium envs.

``hearts_env.env(preset, **options)`` — PettingZoo AEC environment (one game);
``hearts_env.parallel_env(preset, **options)`` — the same as a turn-based PettingZoo ParallelEnv;
``hearts_env.vector_env(preset, num_envs=B, seed=..., **options)`` — B games as a Gymnasium
``VectorEnv``; ``hearts_env.make_rules`` — the validated rules of a preset; ``PRESETS`` — the
preset table; ``hearts_env.unpack(obs, layout, device=...)`` — a compact observation
(``obs_format="uint8"`` / ``"packed"``) as the float32 one, on a torch device;
``hearts_env.Table(rules, num_games=B)`` — the batch API under all of them (B games stepped
together: legal masks, ``step`` with rewards and deal/game ends, fixed deals, ``state_dict``),
which agents, tournaments and training use;
``hearts_env.single_agent_env(preset, opponents="random", seat=0)`` — one learning seat as a
single-agent ``gymnasium.Env``, the other seats played by given agents (``action_masks()`` for
``sb3_contrib.MaskablePPO``);
``hearts_env.Position`` — a deal in play, to start a table from (``Table.set_position``).
Every preset's rules and the option names: ``docs/rules.md`` (``hearts-env rules``). The
``options`` are the game's rules; ``reward``, ``episode`` (``"deal"`` or ``"game"``) and
``illegal_action`` (``"raise"`` or ``"terminate"``) are the env's settings, taken by every
constructor above and by ``Table(rules, num_games, reward=, episode=, illegal_action=)``.
"""

from hearts_env.core.cards import card_name, card_symbol, parse_card, parse_cards
from hearts_env.core.formats import OBS_FORMATS, unpack, unpack_numpy
from hearts_env.core.rules import Rules
from hearts_env.env import env, parallel_env, raw_env
from hearts_env.games.hearts.positions import Position, PositionBatch
from hearts_env.observation import layout
from hearts_env.presets import PRESETS, all_configs, make_rules, preset_names
from hearts_env.single import SingleSeatEnv, single_agent_env
from hearts_env.table import StepResult, Table
from hearts_env.vector import HeartsVectorEnv, vector_env

__all__ = [
    "OBS_FORMATS",
    "PRESETS",
    "Position",
    "PositionBatch",
    "HeartsVectorEnv",
    "Rules",
    "SingleSeatEnv",
    "StepResult",
    "Table",
    "all_configs",
    "card_name",
    "card_symbol",
    "env",
    "layout",
    "make_rules",
    "parse_card",
    "parallel_env",
    "parse_cards",
    "preset_names",
    "raw_env",
    "single_agent_env",
    "unpack",
    "unpack_numpy",
    "vector_env",
]
__version__ = "0.1.0"
