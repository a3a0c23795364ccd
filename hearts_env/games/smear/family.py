"""The Smear family's record: the mechanisms it is built from, by the objects themselves."""

from __future__ import annotations

from hearts_env.core.family import Family, Positions
from hearts_env.games.smear.describe import COLUMNS, TOPICS
from hearts_env.games.smear.engine import SmearEngine, deal_info, deal_outcome
from hearts_env.games.smear.observation import (
    GAME_POINTS_SCALE,
    PIECE_AXES,
    SmearObserver,
    axis_names,
    smear_bounds,
    smear_layout,
)
from hearts_env.games.smear.options import SmearOptions
from hearts_env.games.smear.positions import SmearPositionBatch, check_batch, position_of
from hearts_env.games.smear.texts import state_text
from hearts_env.games.smear.worlds import knowledge, world_positions

FAMILY = Family(
    name="smear",
    title="Smear",
    options=SmearOptions,
    engine=SmearEngine,
    observer=SmearObserver,
    layout=smear_layout,
    bounds=smear_bounds,
    renderer=state_text,
    topics=TOPICS,
    columns=COLUMNS,
    piece_axes=PIECE_AXES,
    axis_names=axis_names,
    knowledge=knowledge,
    deal_info=deal_info,
    rules_doc="smear.md",
    points_piece=("game_points", GAME_POINTS_SCALE, "game points"),
    better="higher",
    chips=False,
    scale_points=lambda rules: rules.smear_points,
    positions=Positions(
        batch=SmearPositionBatch, check=check_batch, read=position_of, single=None, worlds=world_positions
    ),
    deal_outcome=deal_outcome,
)
