"""Same numbers before and after a change: every configuration's deals, observations, legal
masks and rewards, and the shipped checkpoints' tournaments, on two commits.

A refactor that moves modules must not change a number. This script plays, inside one
checkout, a few hundred seeded deals of every configuration (each preset at each of its player
counts, each reading and version at the preset's default count, and those that settle in chips
again with ``reward="chips"``) through the public batch API, ``Table(rules, num_games=B)``:
``reset(seed=...)``, ``observe()``, ``action_mask()``, ``current_player``, ``step(actions)``
(rewards, deal ends) and ``redeal(rows)``, with actions drawn among the legal ones by a seeded
generator. Everything it sees goes into one SHA-256 per configuration (observations as float32,
masks as int8, the acting seats as int64, rewards as float64, deal ends as bool bytes). It does
so on ``BASE`` (checked out with ``git worktree`` into a temporary folder, removed after) and on
this checkout's working tree, or on a second commit, also as a worktree (so that what others are
editing in the checkout does not get in the way), each side in a fresh ``python -c`` that puts
its checkout first on ``sys.path``; then it compares the digests::

    python -m tools.same_numbers HEAD~1                  # "N configurations identical"
    python -m tools.same_numbers b85e3a0 --tournaments   # plus the shipped checkpoints
    python -m tools.same_numbers f6a1078 90289bf         # two commits, both as worktrees

``--tournaments`` also runs, on each checkout, a 200-deal duplicate tournament of each shipped
checkpoint (``agents/checkpoints/*.pt``) against its family's heuristic and compares the JSONs'
``agents``, ``pairs``, ``rotations`` and ``progress`` (``per_deal``, ``counters``); times and
run records are left out. Exit status 1 when anything differs.

This file imports only the standard library and numpy, and the subprocesses run a copy of it
from the temporary folder, so neither checkout's ``tools`` folder is involved; each side
checks that every project module it loaded came from its own checkout.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import json
import shlex
import shutil
import sys
import tempfile
import time
from collections.abc import Iterable, Mapping
from contextlib import ExitStack
from pathlib import Path
from typing import Any

import numpy as np

from hearts_env.files import write_json

ROOT = Path(__file__).resolve().parent.parent
PROJECT_PACKAGES = ("hearts_env", "agents", "training", "evaluation", "hearts_cli", "benchmarks")
HEURISTIC = {"hearts": "strategy", "smear": "smear"}  # the tournament opponent per game family
SMEAR_PRESETS_PREFIX = "smear"  # every Smear preset's name starts so (preset_names("smear"))
DEFAULT_DEALS = 800
BATCH = 64


# ---------------------------------------------------------------------------- the driver
def _api(name: str, module: str) -> Any:
    """``hearts_env.<name>`` where the package exports it, else ``hearts_env.<module>.<name>`` (the
    places of commit b85e3a0), so that the driver runs on checkouts before and after a move."""
    package = importlib.import_module("hearts_env")
    if hasattr(package, name):
        return getattr(package, name)
    return getattr(importlib.import_module(f"hearts_env.{module}"), name)


def config_names() -> list[str]:
    """Every configuration of the checkout on ``sys.path``: ``"<preset>-<n>p"`` for each preset
    and player count, ``"<preset>-<n>p:reading=<r>"`` / ``":version=<v>"`` at the default count."""
    table = _api("PRESETS", "presets")
    try:
        pairs = list(_api("all_configs", "presets")())
    except AttributeError:  # an older checkout: the default player count only
        pairs = [(name, p.default_players) for name, p in table.items()]
    names = [f"{name}-{n}p" for name, n in pairs]
    for name, spec in table.items():
        n = spec.default_players
        names += [f"{name}-{n}p:reading={r}" for r in getattr(spec, "readings", {})]
        names += [f"{name}-{n}p:version={v}" for v in getattr(spec, "versions", {})]
    return names + [f"{name}{',' if ':' in name else ':'}reward=chips" for name in names if _settles(name)]


def _settles(name: str) -> bool:
    """The configuration settles in chips (its rewards under ``reward="points"`` do not show them)."""
    preset, n, options = parse_config(name)
    try:
        rules = _api("make_rules", "presets")(preset, n, **options)
    except Exception:  # noqa: BLE001 - a refused configuration is compared as such elsewhere
        return False
    return getattr(rules, "settlement", "points") != "points"  # Smear's is always "points"


def parse_config(name: str) -> tuple[str, int, dict[str, Any]]:
    """``"hearts-4p:reading=parlett"`` -> ``("hearts", 4, {"reading": "parlett"})``; ``reward`` is
    the :class:`Table`'s reward, the other options go to ``make_rules``."""
    head, _, extra = name.partition(":")
    preset, _, count = head.rpartition("-")
    options = dict(item.split("=", 1) for item in extra.split(",")) if extra else {}
    return preset, int(count.rstrip("p")), options


def _field(result: Any, name: str) -> Any:
    """A step result's field, whether the result is a record or a mapping."""
    return result[name] if isinstance(result, Mapping) else getattr(result, name)


def _feed(digest: Any, array: Any, dtype: Any) -> None:
    """Hash ``array`` as ``dtype``, its shape first (so that a reshaped piece cannot collide)."""
    array = np.ascontiguousarray(np.asarray(array), dtype=dtype)
    digest.update(repr(array.shape).encode())
    digest.update(array.tobytes())


def play_digest(
    preset: str,
    num_players: int,
    deals: int = DEFAULT_DEALS,
    seed: int = 0,
    batch: int = BATCH,
    reward: str | None = None,
    **options: Any,
) -> str:
    """SHA-256 of ``deals`` (at least) seeded deals of one configuration, random legal play.

    Per step it hashes the acting seats (int64), observations (float32), legal masks (int8),
    the actions, the rewards (float64) and the deal ends; deals that end are dealt again at
    once (``redeal``). An error (rules refused, engine failure) gives ``"error: <type>: <message>"``.
    """
    try:
        rules = _api("make_rules", "presets")(preset, num_players, **options)
        table = _api("Table", "table")(
            rules, num_games=batch, **({} if reward is None else {"reward": reward})
        )
        table.reset(seed=seed)
    except Exception as error:  # noqa: BLE001 - a refusal is a result to compare, not a crash
        return f"error: {type(error).__name__}: {error}"
    rng = np.random.default_rng([seed, 1])  # the players' choices, apart from the deals' generator
    digest = hashlib.sha256()
    finished = 0
    try:
        while finished < deals:
            _feed(digest, table.current_player, np.int64)
            _feed(digest, table.observe(), np.float32)
            mask = np.asarray(table.action_mask())
            _feed(digest, mask, np.int8)
            choice = np.where(mask > 0, rng.random(mask.shape), -1.0).argmax(axis=1)
            _feed(digest, choice, np.int64)
            result = table.step(choice.astype(np.int64))
            ended = np.asarray(_field(result, "deal_ended"), dtype=bool)
            _feed(digest, _field(result, "rewards"), np.float64)
            _feed(digest, ended, np.bool_)
            rows = np.flatnonzero(ended)
            finished += len(rows)
            if len(rows):
                table.redeal(rows)
    except Exception as error:  # noqa: BLE001
        return f"error after {finished} deals: {type(error).__name__}: {error}"
    return digest.hexdigest()


def digests(
    deals: int = DEFAULT_DEALS, seed: int = 0, names: Iterable[str] | None = None, **options: Any
) -> dict[str, str]:
    """``{configuration: digest}`` for ``names`` (default: every configuration of the checkout)."""
    out = {}
    for name in config_names() if names is None else names:
        preset, n, extra = parse_config(name)
        out[name] = play_digest(preset, n, deals, seed, **extra, **options)
    return out


def foreign_modules(root: str | Path) -> list[str]:
    """Project modules loaded in this process from outside ``root`` (there should be none)."""
    root = Path(root).resolve()
    bad = []
    for name, module in list(sys.modules.items()):
        if name.split(".")[0] not in PROJECT_PACKAGES or name == __name__:
            continue
        where = getattr(module, "__file__", None)
        places = [where] if where else list(getattr(module, "__path__", []))
        if any(not Path(p).resolve().is_relative_to(root) for p in places):
            bad.append(f"{name} ({places[0] if places else '?'})")
    return bad


# ---------------------------------------------------------------------------- two checkouts
_DIGESTS = (
    "import json, runpy, sys; sys.path.insert(0, {root!r}); "
    "driver = runpy.run_path({driver!r}); "
    "result = driver['digests']({deals}, {seed}); "
    "bad = driver['foreign_modules']({root!r}); "
    "sys.exit('modules from outside the checkout: ' + ', '.join(bad)) if bad else None; "
    "print(json.dumps(result))"
)
_TOURNAMENT = (
    "import runpy, sys; sys.path.insert(0, {root!r}); "
    "driver = runpy.run_path({driver!r}); "
    "sys.argv = ['hearts_cli', *{argv!r}]; "
    "code = 0\n"
    "try:\n    runpy.run_module('hearts_cli', run_name='__main__')\n"
    "except SystemExit as stop:\n    code = stop.code\n"
    "bad = driver['foreign_modules']({root!r})\n"
    "sys.exit('modules from outside the checkout: ' + ', '.join(bad) if bad else code)"
)


def checkout_digests(root: Path, driver: Path, deals: int, seed: int) -> dict[str, str]:
    """The digests of every configuration of the checkout at ``root``."""
    from tools.checkouts import python  # this process only: the driver copy imports no project module

    out = python(_DIGESTS.format(root=str(root), driver=str(driver), deals=deals, seed=seed), root)
    return json.loads(out.strip().splitlines()[-1])


UNIVERSAL_PLAYS = {"hearts": ("spot_hearts", 4), "smear": ("smear_widow", 3)}
"""Where each family's shipped universal network (``universal-<family>.pt``) is played: a
configuration no specialist ships for, so that ``ppo`` picks the universal network."""


def checkpoints(root: Path) -> list[tuple[str, int]]:
    """(preset, players) of each shipped checkpoint of the checkout at ``root``: a specialist's
    own configuration (``<preset>-<N>p.pt``), a universal network's :data:`UNIVERSAL_PLAYS`."""
    out = []
    for path in sorted((root / "agents" / "checkpoints").glob("*.pt")):
        head, _, tail = path.stem.rpartition("-")
        out.append(UNIVERSAL_PLAYS[tail] if head == "universal" else (head, int(tail.rstrip("p"))))
    return out


COMPARED = ("agents", "pairs", "rotations", "progress.per_deal", "progress.counters")
"""The tournament record's entries compared (times, run records and rules echoes are not)."""


def tournament(root: Path, driver: Path, preset: str, players: int, folder: Path, seed: int) -> dict:
    """The compared entries of a 200-deal tournament of ``ppo`` against the family's heuristic."""
    heuristic = HEURISTIC["smear" if preset.startswith(SMEAR_PRESETS_PREFIX) else "hearts"]
    path = folder / f"{root.name}-{preset}-{players}p.json"
    argv = ["tournament", "--preset", preset, "--players", str(players), "--agents", f"ppo,{heuristic}",
            "--deals", "200", "--tables", "50", "--seed", str(seed), "--json", str(path),
            "--quiet"]  # fmt: skip
    from tools.checkouts import python  # this process only (see checkout_digests)

    python(_TOURNAMENT.format(root=str(root), driver=str(driver), argv=argv), root)
    record = json.loads(path.read_text())
    out = {}
    for key in COMPARED:
        value: Any = record
        for part in key.split("."):
            value = value.get(part) if isinstance(value, dict) else None
        out[key] = value
    return out


def differences(before: Mapping[str, Any], after: Mapping[str, Any]) -> list[str]:
    """The keys whose values differ, or that only one side has."""
    return [
        k for k in sorted(set(before) | set(after)) if before.get(k, "(absent)") != after.get(k, "(absent)")
    ]


def compare(sides: Mapping[str, Path], driver: Path, folder: Path, args: argparse.Namespace) -> dict:
    """Digests of both sides (and tournaments, if asked); prints the differences. The report has
    ``failed`` (anything differs, or a side could not run)."""
    report: dict[str, Any] = {"failed": False}
    found = {}
    for side, root in sides.items():
        start = time.perf_counter()
        found[side] = checkout_digests(root, driver, args.deals, args.seed)
        print(f"{side}: {len(found[side])} configurations in {time.perf_counter() - start:.0f} s",
              file=sys.stderr, flush=True)  # fmt: skip
    differ = differences(found["before"], found["after"])
    report.update(digests=found, differ=differ, failed=bool(differ))
    for name in differ:
        print(f"differs: {name}  before {found['before'].get(name, '(absent)')[:16]}"
              f"  after {found['after'].get(name, '(absent)')[:16]}")  # fmt: skip
    print(f"{len(found['after']) - len(differ)} configurations identical, {len(differ)} differ", flush=True)
    if not args.tournaments:
        return report
    report["tournaments"] = {}
    shipped = sorted(set(checkpoints(sides["before"])) | set(checkpoints(sides["after"])))
    if not shipped:
        print("no shipped checkpoint found (agents/checkpoints/*.pt) on either side")
        report["failed"] = True
    for preset, players in shipped:
        name = f"{preset}-{players}p"
        try:
            runs = {side: tournament(root, driver, preset, players, folder, args.seed)
                    for side, root in sides.items()}  # fmt: skip
        except RuntimeError as error:
            print(f"tournament {name}: could not run: {error}")
            report["tournaments"][name] = {"error": str(error)}
            report["failed"] = True
            continue
        differ = differences(runs["before"], runs["after"])
        report["tournaments"][name] = {"differ": differ, **runs}
        print(
            f"tournament {name}: " + (f"differs in {', '.join(differ)}" if differ else "identical"),
            flush=True,
        )
        report["failed"] |= bool(differ)
    return report


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("base", help="the commit to compare with (e.g. HEAD~1)")
    parser.add_argument("after", nargs="?", default=None,
                        help="a commit to compare it with (default: the working tree)")  # fmt: skip
    parser.add_argument("--deals", type=int, default=DEFAULT_DEALS,
                        help=f"deals per configuration (default {DEFAULT_DEALS})")  # fmt: skip
    parser.add_argument("--seed", type=int, default=0, help="seed of the deals and of the players (0)")
    parser.add_argument(
        "--tournaments", action="store_true", help="also the shipped checkpoints' tournaments"
    )
    parser.add_argument("--json", type=Path, default=None, help="write the digests and differences here")
    args = parser.parse_args(argv)
    command = "python -m tools.same_numbers " + shlex.join(sys.argv[1:] if argv is None else argv)
    from tools.checkouts import git, worktree  # this process only (see checkout_digests)

    commits = {"before": git("rev-parse", args.base)}
    if args.after is not None:
        commits["after"] = git("rev-parse", args.after)
    head = {"head": git("rev-parse", "HEAD"),
            "head_dirty": bool(git("status", "--porcelain", "--untracked-files=no"))}  # fmt: skip
    with tempfile.TemporaryDirectory() as temp:
        folder = Path(temp)
        driver = folder / "same_numbers_driver.py"
        shutil.copyfile(__file__, driver)  # the driver of this file, whatever either checkout holds
        sides = {"before": folder / "before", "after": folder / "after" if args.after else ROOT}
        with ExitStack() as checkouts:
            for side, commit in commits.items():
                checkouts.enter_context(worktree(commit, sides[side]))
            try:
                report = compare(sides, driver, folder, args)
            except RuntimeError as error:  # a side that cannot run at all
                print(error)
                report = {"failed": True, "error": str(error)}
    if args.json:
        record = {"command": command, **commits, **({} if args.after else head),
                  "deals": args.deals, "seed": args.seed, **report}  # fmt: skip
        write_json(args.json, record, indent=1)
    return int(report["failed"])


if __name__ == "__main__":
    sys.exit(main())
