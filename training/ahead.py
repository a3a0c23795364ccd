"""``overlap``: the next iteration's rollout played in a thread while this iteration's update runs
(:class:`Ahead`, used by :class:`training.ppo.SingleConfiguration`)."""

from __future__ import annotations

import copy
import dataclasses
import threading
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import torch

from agents.ppo import PolicyValueNet
from training.config import Args
from training.rollout import Rollout


class Ahead:
    """``overlap``: the next iteration's rollout, played in a thread while the update runs.

    The thread plays into a second buffer with ``actor``, a copy of the network taken before the
    update (so the update never changes the weights it acts with), and draws its actions from a
    generator of its own (so the update's minibatch shuffling, on torch's default generator, and
    the rollout never share one: the run stays reproducible). Only the rollout thread touches the
    table, the league and the run's numpy generator while it runs; :meth:`join` comes before
    anything else in the iteration. An iteration that ends with a checkpoint, or the last one
    of a decision budget, plays nothing ahead: the checkpoint never holds a rollout in flight, so
    a resumed run continues exactly as the uninterrupted one."""

    def __init__(self, net: PolicyValueNet, buf: Rollout, args: Args, saved: Mapping[str, Any]) -> None:
        self.args, self.net = args, net
        self.actor = copy.deepcopy(net)
        self.spare = dataclasses.replace(
            buf, **{f.name: np.zeros_like(getattr(buf, f.name)) for f in dataclasses.fields(buf)}
        )
        self.generator = torch.Generator()
        self.generator.manual_seed(int(np.random.SeedSequence([args.seed, 1]).generate_state(1)[0]))
        if "rollout_torch_rng" in saved:
            self.generator.set_state(saved["rollout_torch_rng"])
        self.thread: threading.Thread | None = None
        self.error: BaseException | None = None
        self.ready = False

    def worth_it(self, progress: Mapping[str, Any]) -> bool:
        """Whether to play ahead during this iteration's update: not when the iteration ends with
        a checkpoint or, under a decision budget, is the last."""
        args, following = self.args, progress["iteration"] + 1
        if following % args.checkpoint_every == 0:
            return False
        made = progress["decisions"] + args.rollout_steps * args.num_games
        return not (args.total_decisions and made >= args.total_decisions)

    def start(self, play: Callable[[Rollout, PolicyValueNet], None]) -> None:
        """Play ``play(buffer, actor)`` in a thread, the actor holding the current weights."""
        self.actor.load_state_dict(self.net.state_dict())
        self.error, self.ready = None, False

        def run() -> None:
            try:
                play(self.spare, self.actor)
            except BaseException as error:  # noqa: BLE001 - raised again by join()
                self.error = error

        self.thread = threading.Thread(target=run, name="rollout-ahead")
        self.thread.start()

    def join(self) -> None:
        """Wait for the rollout in flight; raise its error, if any."""
        if self.thread is None:
            return
        self.thread.join()
        self.thread = None
        if self.error is not None:
            error, self.error = self.error, None
            raise error
        self.ready = True

    def take(self, done: Rollout) -> Rollout:
        """The rollout played ahead; ``done``, the buffer just trained on, becomes the spare."""
        out, self.spare, self.ready = self.spare, done, False
        return out
