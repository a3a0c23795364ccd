"""Search labels: a game family's configurations played by a search agent (``pimc``) at every seat,
each decision recorded with the search's value of every action, for training on (issue 45).

Run it::

    hearts-env label --family hearts --out labels/hearts --decisions 200000 --workers 8
    hearts-env label --family hearts --out labels/hearts --decisions 400000 --resume   # go on, or further

What is labelled
----------------
The labels come in *shards*. Shard ``k`` is one configuration drawn by the family training's
schedule (:func:`training.config.schedule`, :mod:`training.mixture`'s; ``--configs`` and
``--weights`` as there) from a generator seeded with ``(seed, k)``, and ``games_per_shard``
deals of it dealt from a seed drawn from that generator too, played to their end with the
labelling agent at every seat. So shard ``k`` depends on the settings and ``k`` alone: a resumed
run, a run on worker processes and one on Ray label the same shards. The run labels shards 0, 1,
2, … until the shards ``0..k-1`` hold at least ``decisions`` decisions; shards past that prefix
that parallel workers finished meanwhile are not kept, so the shards kept are the same whatever
ran them.

Every decision of every seat is kept: the passes, the cards, Smear's bids and discards, the
declarations. The agent's values are :meth:`agents.pimc.PIMCAgent.last_options` (the acting
seat's mean reward over the sampled worlds, higher is better; NaN for an action not searched: a
single legal card, a decision the fallback made alone, every action of an agent without a
search).

Files (``--out DIR``)
---------------------
``shard-NNNNN.npz`` (compressed, written atomically), format :data:`SHARD_FORMAT`; with ``N``
decisions, ``A`` the configuration's actions:

==========  ============  =============================================================
field       shape, type   what
==========  ============  =============================================================
format      ()  str       :data:`SHARD_FORMAT`
shard       ()  int64     the shard's index ``k``
preset      ()  str       the configuration's preset …
players     ()  int64     … and player count
deal_seed   ()  int64     ``Table(rules, games).reset(seed=deal_seed)`` deals the games
obs         (N, W) u64    the acting seat's observation, packed (``Table.encode("packed")``)
tail        (N, T) f32    its float tail (:func:`hearts_env.unpack` gives back ``observe()``)
mask        (N, A) bool   the legal actions
values      (N, A) f32    the agent's value of each action, NaN where not searched
action      (N,) int64    the action the agent chose
seat        (N,) int64    the acting seat
phase       (N,) int8     the phase code (:mod:`hearts_env.core.phases`)
game        (N,) int64    which of the shard's games …
step        (N,) int64    … and at which step of the batch (decisions in the order played)
reward      (N,) f32      the deal's final reward of the acting seat, scaled as training scales
                          it (``reward`` setting, :func:`training.rollout.reward_scale`)
==========  ============  =============================================================

The observations are the configuration's own; a family network reads them through the universal
view (:func:`hearts_env.universal.universal_view`: ``observation``, ``mask``, ``actions``).

``labels.json`` (format :data:`LABELS_FORMAT`, :data:`LABELS_VERSION`): the ``settings`` that decide
the shards (family, agent spec, games per shard, seed, configs, reward), the ``agent`` (its spec,
its name and its parameters as built), the ``digests`` of the weights it reads per configuration
(:func:`agents.weights_digest`), ``runs`` (each run's command and commit,
:func:`evaluation.provenance.run_record`), the target ``decisions`` and ``shards``: for each shard
kept, its file, configuration, decision count and SHA-256. :func:`read_labels` checks every
shard against it.
"""

from __future__ import annotations

import hashlib
import io
import json
import time
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

import agents
from evaluation.flags import signals_held
from evaluation.provenance import run_record
from hearts_env.core.phases import PHASE_NAMES
from hearts_env.core.rules import Rules
from hearts_env.files import write_atomic, write_json
from hearts_env.games import FAMILIES, family, family_of, layout
from hearts_env.parallel import Pool, make
from hearts_env.presets import make_rules
from hearts_env.table import Table
from training.config import schedule

LABELS_FORMAT, LABELS_VERSION = "hearts-env-labels", 1
"""``format`` and ``version`` of ``labels.json``."""
SHARD_FORMAT = "hearts-env-label-shard/1"
"""``format`` of a shard file."""
FIELDS = ("obs", "tail", "mask", "values", "action", "seat", "phase", "game", "step", "reward")
"""The per-decision arrays of a shard, in the order of the table in the module docstring."""

PHASE_BY_NAME = {name: code for code, name in PHASE_NAMES.items()}


@dataclass(frozen=True)
class LabelSettings:
    """What decides the shards: two runs with these settings label the same shard ``k``."""

    family: str = "hearts"
    agent: str = "pimc"
    games_per_shard: int = 8
    seed: int = 0
    configs: tuple[tuple[str, int], ...] = ()
    weights: tuple[tuple[str, float], ...] = ()
    reward: str = "zero_sum"

    def __post_init__(self) -> None:
        if self.family not in FAMILIES:
            raise ValueError(f"family must be one of {', '.join(FAMILIES)}, got {self.family!r}")
        if not isinstance(self.games_per_shard, int) or self.games_per_shard < 1:
            raise ValueError(f"games_per_shard must be a positive int, got {self.games_per_shard!r}")
        for preset, n in self.configs:
            rules = make_rules(preset, num_players=n)  # an unknown preset or count: its own one line
            if family(rules) is not family_of(self.family):
                raise ValueError(f"--configs {preset}-{n} is a {rules.game} configuration, not {self.family}")

    def plain(self) -> dict[str, Any]:
        """The settings as JSON values (configs as ``PRESET-N`` strings)."""
        return {
            **asdict(self), "configs": [f"{p}-{n}" for p, n in self.configs],
            "weights": [f"{p}={w:g}" for p, w in self.weights],
        }  # fmt: skip

    def shard_rules(self, k: int) -> tuple[Rules, int]:
        """Shard ``k``'s configuration and deal seed: from a generator seeded with (seed, k) alone."""
        rng = np.random.default_rng([self.seed, k])
        rules = schedule(self.family, rng, self.configs, self.weights)
        return rules, int(rng.integers(2**62))


def shard_name(k: int) -> str:
    """The file name of shard ``k``."""
    return f"shard-{k:05d}.npz"


# ---------------------------------------------------------------------- labelling one shard
class Labeller:
    """A worker: labels whole shards (:meth:`label`), its agents kept between them."""

    def __init__(self, settings: LabelSettings) -> None:
        self.settings = settings
        self.agents: dict[Rules, agents.Agent] = {}

    def label(self, k: int) -> dict[str, np.ndarray]:
        """Shard ``k``'s arrays (the module docstring's table)."""
        s = self.settings
        rules, deal_seed = s.shard_rules(k)
        if rules not in self.agents:
            self.agents[rules] = agents.from_spec(s.agent, rules)
        agent = self.agents[rules]
        rng = np.random.default_rng([s.seed, k, 1])  # the agent's draws: the shard's own stream
        table = Table(rules, s.games_per_shard, reward=s.reward)
        view = layout(rules).view  # the phase as the observation shows it: codes of rules.phases
        codes = np.array([PHASE_BY_NAME[name] for name in rules.phases], np.int8)
        table.reset(seed=deal_seed)
        parts: dict[str, list[np.ndarray]] = {name: [] for name in FIELDS if name != "reward"}
        final = np.zeros((s.games_per_shard, rules.num_players))
        actions = np.zeros(s.games_per_shard, np.int64)
        step = 0
        while not table.deal_over.all():
            live = np.flatnonzero(~table.deal_over)
            obs, mask = table.observe()[live], table.action_mask()[live]
            words, tail = table.encode("packed")
            chosen = np.asarray(agent.act({"observation": obs, "action_mask": mask}, rng), np.int64)
            options = getattr(agent, "last_options", None)
            values = options() if callable(options) else None
            values = np.full(mask.shape, np.nan) if values is None else np.asarray(values)
            for name, value in (
                ("obs", words[live]), ("tail", tail[live]), ("mask", mask > 0),
                ("values", values.astype(np.float32)), ("action", chosen),
                ("seat", table.current_player[live].astype(np.int64)),
                ("phase", codes[view(obs, "phase").argmax(axis=1)]), ("game", live.astype(np.int64)),
                ("step", np.full(len(live), step, np.int64)),
            ):  # fmt: skip
                parts[name].append(value)
            actions[:] = 0
            actions[live] = chosen
            result = table.step(actions)
            if result.deal_ended.any():
                final[result.deal_ended] = result.rewards[result.deal_ended]
            step += 1
        out = {name: np.concatenate(value) for name, value in parts.items()}
        scale = family(rules).reward_scale(rules)  # training.rollout.reward_scale, without torch
        out["reward"] = (final[out["game"], out["seat"]] * scale).astype(np.float32)
        return {
            "format": np.array(SHARD_FORMAT), "shard": np.array(k, np.int64),
            "preset": np.array(rules.preset), "players": np.array(rules.num_players, np.int64),
            "deal_seed": np.array(deal_seed, np.int64),
            **out,
        }  # fmt: skip


def shard_bytes(arrays: dict[str, np.ndarray]) -> bytes:
    """A shard's compressed ``.npz`` content."""
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)
    return buffer.getvalue()


def check_shard(path: Path, data: Any, expect: dict[str, Any] | None = None) -> dict[str, np.ndarray]:
    """The arrays of shard file ``path`` (an opened ``np.load``), or ``ValueError`` in one line
    naming what is wrong (not a shard, a field missing, lengths that disagree, not what
    ``labels.json`` says)."""
    names = set(getattr(data, "files", ()))
    if "format" not in names or str(data["format"]) != SHARD_FORMAT:
        raise ValueError(f"{path} is not a label shard ({SHARD_FORMAT})")
    missing = sorted({"shard", "preset", "players", "deal_seed", *FIELDS} - names)
    if missing:
        raise ValueError(f"{path} is damaged: it lacks {', '.join(missing)}")
    arrays = {name: data[name] for name in names}
    n = len(arrays["action"])
    short = [name for name in FIELDS if len(arrays[name]) != n]
    if short or arrays["mask"].shape != arrays["values"].shape:
        raise ValueError(f"{path} is damaged: {', '.join(short) or 'values'} disagree with the decisions")
    if expect is not None:
        config = f"{arrays['preset']}-{int(arrays['players'])}"
        if config != expect["config"] or n != expect["decisions"]:
            raise ValueError(
                f"{path} holds {n} decisions of {config}, labels.json says {expect['decisions']} of "
                f"{expect['config']}"
            )
    return arrays


# ---------------------------------------------------------------------- the run
def read_record(out: Path) -> dict[str, Any] | None:
    """``out/labels.json``, checked (None if there is none); ``ValueError`` in one line for a damaged
    or foreign one."""
    path = out / "labels.json"
    if not path.exists():
        return None
    try:
        record = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as error:
        raise ValueError(f"{path} is damaged: {type(error).__name__}") from None
    if not isinstance(record, dict) or record.get("format") != LABELS_FORMAT:
        raise ValueError(f"{path} is not a labels record ({LABELS_FORMAT})")
    if record.get("version") != LABELS_VERSION:
        raise ValueError(f"{path} is version {record.get('version')!r}; this code reads {LABELS_VERSION}")
    if not isinstance(record.get("settings"), dict) or not isinstance(record.get("shards"), dict):
        raise ValueError(f"{path} is damaged: no settings or shards")
    return record


@dataclass
class LabelRun:
    """One ``hearts-env label`` run into ``out``, held by the caller's
    :class:`~hearts_env.files.OutputLock`."""

    settings: LabelSettings
    out: Path
    decisions: int
    resume: bool = False
    command: str | None = None
    record: dict[str, Any] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not isinstance(self.decisions, int) or self.decisions < 1:
            raise ValueError(f"decisions must be a positive int, got {self.decisions!r}")
        old = read_record(self.out)
        plain = self.settings.plain()
        if old is not None and not self.resume:
            raise ValueError(
                f"{self.out} already holds labels: --resume goes on with them, or choose another --out"
            )
        if old is not None:
            differ = sorted(k for k in plain if old["settings"].get(k) != plain[k])
            if differ:
                said = ", ".join(f"{k} {old['settings'].get(k)!r} not {plain[k]!r}" for k in differ)
                raise ValueError(f"{self.out}/labels.json was labelled with other settings ({said})")
            for k, entry in old["shards"].items():  # a resumed run builds on its shards: check them
                _read_shard(self.out, int(k), entry)
            self.record = old
        else:
            self.record = {"format": LABELS_FORMAT, "version": LABELS_VERSION, "settings": plain,
                           "agent": {}, "digests": {}, "runs": [], "shards": {}}  # fmt: skip
        self.record["decisions"] = self.decisions
        self.record["runs"].append(run_record(self.command))

    @property
    def done(self) -> dict[int, int]:
        """The shards kept: index -> decisions."""
        return {int(k): int(v["decisions"]) for k, v in self.record["shards"].items()}

    def needed(self) -> int | None:
        """The length of the shortest prefix of shards that holds ``decisions`` (None: not known yet)."""
        done, total = self.done, 0
        for k in range(len(done) + 1):
            if k not in done:
                return None
            total += done[k]
            if total >= self.decisions:
                return k + 1
        return None

    def run(
        self, pool: Pool | None = None, progress: bool = True, stopped: Callable[[], bool] | None = None
    ) -> dict:
        """Label shards until the prefix holds ``decisions`` (on ``pool``'s workers, default one in
        this process); writes each shard and ``labels.json`` as it finishes. Returns the record."""
        from evaluation.progress import progress_bar

        write_json(self.out / "labels.json", self.record)  # the run's provenance, before any shard
        # the bar counts the decisions kept towards the target: its rate is decisions/s, its ETA the rest's
        bar = progress_bar(
            total=self.decisions, initial=min(self.decisions, sum(self.done.values())), unit=" decisions",
            desc=f"labelling {self.settings.family} with {self.settings.agent}", disable=not progress,
            dynamic_ncols=True,
        )  # fmt: skip
        start, labelled = time.perf_counter(), 0
        pool = pool or make("serial")
        with pool.start(Labeller, lambda count: [(self.settings,)] * count) as workers:
            for _, arrays in workers.imap("label", self._todo(), ordered=False):
                self._keep(arrays)
                labelled += len(arrays["action"])
                bar.update(len(arrays["action"]))
                if stopped is not None and stopped():
                    break
        bar.close()
        self._trim()
        self.seconds, self.labelled = time.perf_counter() - start, labelled
        return self.record

    def _todo(self) -> Iterator[tuple[int]]:
        """The next shard missing, for as long as the kept prefix does not hold ``decisions``."""
        k = 0
        while self.needed() is None:
            if k not in self.done:
                yield (k,)
            k += 1
            if k > len(self.done) + 10**6:  # a guard: never reached with shards of any decisions
                return

    def _keep(self, arrays: dict[str, np.ndarray]) -> None:
        """Write a finished shard and note it in ``labels.json``."""
        k = int(arrays["shard"])
        content = shard_bytes(arrays)
        config = f"{arrays['preset']}-{int(arrays['players'])}"
        rules = make_rules(str(arrays["preset"]), num_players=int(arrays["players"]))
        if not self.record["agent"]:
            self.record["agent"] = agent_record(self.settings.agent, rules)
        if config not in self.record["digests"]:
            self.record["digests"][config] = agents.weights_digest(self.settings.agent, rules)
        entry = {"file": shard_name(k), "config": config, "decisions": len(arrays["action"]),
                 "sha256": hashlib.sha256(content).hexdigest()}  # fmt: skip
        with signals_held():  # the shard and the note of it, or neither
            write_atomic(self.out / shard_name(k), content)
            self.record["shards"][str(k)] = entry
            write_json(self.out / "labels.json", self.record)

    def _trim(self) -> None:
        """Drop the shards past the prefix that holds ``decisions`` (parallel workers' extra ones):
        the shards kept are then the same whatever ran them."""
        needed = self.needed()
        if needed is None:  # stopped early: every finished shard is kept, a resumed run uses them
            return
        extra = [k for k in self.done if k >= needed]
        if not extra:
            return
        with signals_held():
            for k in extra:
                del self.record["shards"][str(k)]
            write_json(self.out / "labels.json", self.record)
            for k in extra:
                (self.out / shard_name(k)).unlink(missing_ok=True)

    def kept(self) -> str:
        """What the output holds, in words (for the Ctrl-C line and the summary)."""
        done = self.done
        return f"{self.out} keeps {len(done)} shards ({sum(done.values())} decisions)"


def agent_record(spec: str, rules: Rules) -> dict[str, Any]:
    """The labelling agent as built for ``rules``: its spec, its name and its own parameters' values
    (``pimc``'s worlds, rollout, fallback, margin …) as JSON values."""
    name, given = agents.parse_spec(spec)
    agent = agents.from_spec(spec, rules)
    parameters: dict[str, Any] = {}
    for key in agents.agent_parameters(name):
        value = given.get(key, getattr(agent, key, getattr(agent, f"_{key}", None)))
        if isinstance(value, (int, float, str, bool, type(None))):  # an agent object: its spec below
            parameters[key] = value
    for key in ("rollout", "fallback_spec"):  # what "best" resolved to
        if isinstance(getattr(agent, key, None), str):
            parameters[f"resolved_{key}"] = getattr(agent, key)
    return {"spec": spec, "name": name, "parameters": parameters}


def _read_shard(out: Path, k: int, entry: Any) -> dict[str, np.ndarray]:
    """Shard ``k`` of ``out``, checked against its ``labels.json`` entry; ``ValueError`` in one line."""
    if not isinstance(entry, dict) or not {"file", "config", "decisions", "sha256"} <= set(entry):
        raise ValueError(f"{out}/labels.json is damaged: shard {k}'s entry is incomplete")
    path = out / entry["file"]
    try:
        content = path.read_bytes()
    except OSError as error:
        raise ValueError(f"{path} cannot be read ({type(error).__name__}); labels.json lists it") from None
    if hashlib.sha256(content).hexdigest() != entry["sha256"]:
        raise ValueError(f"{path} is damaged: its SHA-256 is not the one labels.json recorded")
    try:
        with np.load(io.BytesIO(content), allow_pickle=False) as data:
            return check_shard(path, data, entry)
    except (OSError, ValueError, EOFError) as error:
        if str(error).startswith(str(path)):
            raise
        raise ValueError(f"{path} is damaged: {type(error).__name__}") from None


def read_labels(out: str | Path, family_name: str | None = None) -> Iterator[dict[str, np.ndarray]]:
    """The shards of labels folder ``out`` in index order, each checked against ``labels.json``
    (its SHA-256, its configuration, its decision count): ``ValueError`` in one line for a damaged
    or foreign file, or labels of another family than ``family_name`` (None: any)."""
    out = Path(out)
    record = read_record(out)
    if record is None:
        raise ValueError(f"{out} holds no labels.json: label it with hearts-env label --out {out}")
    if family_name is not None and record["settings"].get("family") != family_name:
        raise ValueError(
            f"{out} holds labels of {record['settings'].get('family')!r}, not of {family_name!r}"
        )
    for k in sorted(int(k) for k in record["shards"]):
        yield _read_shard(out, k, record["shards"][str(k)])


# ---------------------------------------------------------------------- reading labels to train on
class LabelSource:
    """A family's labels held in memory (compact: packed observations, grouped by configuration),
    drawn as minibatches in the family network's universal layout (:mod:`hearts_env.universal`).

    ``digest`` names the labels (the SHA-256 of their shards' SHA-256s): a training run keeps it
    among its settings, so a run resumed on other labels is refused."""

    def __init__(self, out: str | Path, family_name: str) -> None:
        from hearts_env.core.formats import unpack_numpy
        from hearts_env.universal import universal_view

        self.unpack = unpack_numpy
        self.out = Path(out)
        groups: dict[str, dict[str, list[np.ndarray]]] = {}
        digest = hashlib.sha256()
        record = read_record(self.out) or {}
        for k in sorted(int(k) for k in record.get("shards", {})):
            digest.update(record["shards"][str(k)]["sha256"].encode())
        for shard in read_labels(self.out, family_name):
            config = f"{shard['preset']}-{int(shard['players'])}"
            group = groups.setdefault(config, {name: [] for name in FIELDS})
            for name in FIELDS:
                group[name].append(shard[name])
        self.digest = digest.hexdigest()[:16]
        self.groups: list[dict[str, Any]] = []
        for config, parts in groups.items():
            preset, _, n = config.rpartition("-")
            rules = make_rules(preset, num_players=int(n))
            arrays = {name: np.concatenate(value) for name, value in parts.items()}
            self.groups.append(
                {"config": config, "view": universal_view(rules), "layout": layout(rules), **arrays}
            )
        self.starts = np.cumsum([0] + [len(g["action"]) for g in self.groups])
        self.size = int(self.starts[-1])
        if not self.size:
            raise ValueError(f"{self.out} holds no labelled decisions: label some with hearts-env label")

    def draw(self, rng: np.random.Generator, count: int) -> dict[str, np.ndarray]:
        """``count`` decisions drawn uniformly (with replacement) with ``rng``, in the universal
        layout: ``obs`` (n, D) float32, ``mask`` (n, A) bool, ``values`` (n, A) float32 (NaN where not
        searched or not an action of the configuration), ``action`` (n,) int64, ``reward`` (n,)
        float32. The rows come grouped by configuration, in the order of the draws within each."""
        picks = rng.integers(self.size, size=count)
        group_of = np.searchsorted(self.starts, picks, side="right") - 1
        parts: dict[str, list[np.ndarray]] = {n: [] for n in ("obs", "mask", "values", "action", "reward")}
        for g, group in enumerate(self.groups):
            rows = picks[group_of == g] - self.starts[g]
            if not len(rows):
                continue
            view = group["view"]
            native = self.unpack(
                {"observation": group["obs"][rows], "tail": group["tail"][rows]}, group["layout"]
            )
            values = np.full((len(rows), view.vocabulary.num_actions), np.nan, np.float32)
            values[:, view.actions] = group["values"][rows]
            parts["obs"].append(view.observation(native))
            parts["mask"].append(view.mask(group["mask"][rows]))
            parts["values"].append(values)
            parts["action"].append(view.actions[group["action"][rows]])
            parts["reward"].append(group["reward"][rows])
        return {name: np.concatenate(value) for name, value in parts.items()}
