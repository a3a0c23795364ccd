"""The Hearts family's record: the mechanisms it is built from, by the objects themselves."""

from __future__ import annotations

from hearts_env.core.family import Family, Positions
from hearts_env.games.hearts.describe import COLUMNS, TOPICS
from hearts_env.games.hearts.engine import Engine
from hearts_env.games.hearts.observation import (
    PIECE_AXES,
    POINT_SCALE,
    Observer,
    axis_names,
    hearts_bounds,
    hearts_layout,
)
from hearts_env.games.hearts.options import HeartsOptions
from hearts_env.games.hearts.positions import PositionBatch, check_batch, position_batch, position_of
from hearts_env.games.hearts.rollouts import ROLLOUTS
from hearts_env.games.hearts.texts import state_text
from hearts_env.games.hearts.worlds import knowledge, world_positions

FAMILY = Family(
    name="hearts",
    title="Hearts",
    options=HeartsOptions,
    engine=Engine,
    observer=Observer,
    layout=hearts_layout,
    bounds=hearts_bounds,
    renderer=state_text,
    topics=TOPICS,
    columns=COLUMNS,
    piece_axes=PIECE_AXES,
    axis_names=axis_names,
    knowledge=knowledge,
    deal_info=None,
    rules_doc=None,
    points_piece=("points_taken", POINT_SCALE, "points"),
    better="lower",
    chips=True,
    scale_points=lambda rules: rules.penalty_total,
    positions=Positions(
        batch=PositionBatch,
        check=check_batch,
        read=position_of,
        single=position_batch,
        worlds=world_positions,
    ),
    rollouts=ROLLOUTS,
)
