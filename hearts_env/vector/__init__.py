"""``vector_env``: B games as one ``gymnasium.vector.VectorEnv`` — what training and
tournaments use.

* ``obs = {"observation": (B, D) float32, "action_mask": (B, A) int8}``, each game seen by its
  acting seat (``info["current_player"]``, shape (B,)). The spaces come from
  :mod:`hearts_env.spaces` (the same as the PettingZoo env's) and contain every observation.
* ``step(actions)`` plays one decision in every game: ``actions`` holds one integer card index
  per game (a list of ints or an integer array of shape (B,)). Anything else — bools, floats
  (even ``3.0``), strings, another shape — is a ``TypeError``/``ValueError``, and an illegal
  card a ``ValueError``, naming the game, its acting agent (``player_{seat}``) and the value;
  a refused step changes nothing (``illegal_action="terminate"`` forfeits illegal cards
  instead). ``rewards`` (B,) is the reward of the seat that just acted; ``info["rewards"]``
  (B, P) holds every seat's reward (non-zero only when a deal ends) — turn-based games need
  per-seat credit, so use that.
* ``terminations`` (B,) marks games whose episode (a deal, or a game with ``episode="game"``)
  ended in this step. Finished games restart in the same step (``AutoresetMode.SAME_STEP``):
  the returned observation is already the new deal's. ``info["deal_points"]`` /
  ``info["total_points"]`` (B, P) and ``info["deal_ended"]`` / ``info["game_ended"]`` (B,)
  describe the deals that ended.
* ``reward``, ``episode`` and ``illegal_action`` are the env's settings, not rule options
  (:class:`~hearts_env.table.Table`; ``env.settings`` holds them); every other keyword that the
  env does not take itself is a rule option for :func:`~hearts_env.presets.make_rules`.
* ``num_workers=k`` splits the games into k shards stepped at the same time: this process
  steps the first, k - 1 worker processes the others, writing into shared memory (use it on a
  machine with k free cores). The deals then depend on the seed *and* k. Workers end when the
  env is closed or when this process goes away (even killed), never outliving it.
* ``step_random()`` plays a uniformly random legal action in every game, drawn by the process
  that steps the game (each shard from its own generator, seeded by ``reset``); the actions
  played are in ``info["actions"]``. Nothing is drawn or checked in this process.
* ``copy=False`` returns read-only views of buffers reused every step (the next step
  overwrites them, as with Gymnasium's ``copy=False``); faster than fresh arrays.
* ``worker_timeout`` (seconds, default 60): how long to wait for a worker's answer.
* ``worker_spin`` (seconds, default 0.0002): how long a worker keeps polling for the next
  command after answering one, before it sleeps: steps that follow each other quickly skip the
  wake-up latency (about 10% more decisions/s with two processes here), at the cost of at most
  that much CPU per step on the worker's core. 0 sleeps at once.
* ``autoreset_mode="next_step"`` (for Gymnasium's vector wrappers that need it, e.g.
  ``NormalizeObservation``, or libraries written for Gymnasium's default): a finished episode
  returns its final observation (``terminations`` true, an all-zero mask), and the *next*
  ``step`` restarts that game, ignoring its action (any int; reward 0, ``terminations``
  false). The default ``"same_step"`` restarts in the step that ended the episode.
* ``obs_format="uint8"`` or ``"packed"`` (:mod:`hearts_env.core.formats`): the observation's 0/1
  prefix as bytes, or as the engine's uint64 card-set words, with its real-valued part in
  ``obs["tail"]`` (float32); ``hearts_env.unpack(obs, env.layout, device=...)`` expands either
  into exactly the float32 observation (on a GPU too). Less to write per step, and to copy.
* ``action_mask="info"``: the observation is the plain float32 array (a ``Box`` space, so
  ``FlattenObservation``-style wrappers take it) and the mask is ``info["action_mask"]``
  (B, A) int8 in every ``reset`` and ``step``; the default ``"observation"`` gives the dict
  ``{"observation", "action_mask"}``.

Failures. Every argument, action and reset option is checked before anything changes or any
message goes to a worker, so a refused call leaves every game (and every random generator) as
it was. A worker that dies raises ``RuntimeError("worker 1 (pid …, games …) died: exit code
-9 (SIGKILL); …")``, one that does not answer within ``worker_timeout`` a ``TimeoutError``
naming it. The env is then unusable — its games are no longer in step — and every later call
raises a ``RuntimeError`` saying so; ``close()`` still works (it ends what is left of the
workers, killing them if need be) and a new env starts afresh. Any other failure part-way
through a ``step`` or ``reset`` (a ``KeyboardInterrupt``, say) makes the env unusable too, as
some games may have moved and others not. ``step``/``reset`` before ``reset()`` or after
``close()`` raise a ``RuntimeError`` saying what to call.

Modules: :mod:`~hearts_env.vector.env` the env itself; :mod:`~hearts_env.vector.shard` the games
one process steps; :mod:`~hearts_env.vector.buffers` the arrays a step writes (shared memory with
workers); :mod:`~hearts_env.vector.worker` what a worker process holds (the processes themselves
are :mod:`hearts_env.parallel`'s ``"processes"`` backend); :mod:`~hearts_env.vector.checks` the
argument and action checks and their messages.
"""

from hearts_env.vector.buffers import Buffers
from hearts_env.vector.checks import ACTION_MASKS, RENDER_MODES
from hearts_env.vector.env import HeartsVectorEnv, vector_env
from hearts_env.vector.shard import RANDOM_PLAYER, Shard

__all__ = [
    "ACTION_MASKS",
    "RANDOM_PLAYER",
    "RENDER_MODES",
    "Buffers",
    "HeartsVectorEnv",
    "Shard",
    "vector_env",
]
