"""Named presets: each variant as data over :class:`~hearts_env.core.rules.Rules` (``docs/rules.md``).

``make_rules(preset, num_players=None, reading=None, **options)`` is the one way in:

* ``preset`` — a name from :data:`PRESETS` (``"hearts"``, ``"black_maria"``, …: every family's,
  which the registry :mod:`hearts_env.games` collects from ``hearts_env.games.<family>.presets``);
* ``num_players`` — within the preset's range (default: the preset's default);
* ``reading`` — a named alternative reading of the sources (``"parlett"`` for Greek Hearts …),
  see :data:`Preset.readings`;
* ``options`` — the common rules and the preset's family's options (docs/rules.md), in the
  forms the family's options record takes (:meth:`~hearts_env.core.rules.Options.complete`). An
  option given as a mapping is merged over the preset's mapping (a table of card values);
  ``removal`` names a removal table (``"standard"``, ``"arnold"``, ``"culbertson"``,
  ``"foster"``, ``"maria"``) and ``removed`` lists cards explicitly.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from typing import Any

from hearts_env.core.cards import parse_cards
from hearts_env.core.presets import REMOVAL_ORDERS, REMOVAL_TABLES, Preset
from hearts_env.core.rules import ENV_SETTINGS, FAMILY_OPTIONS, Options, Rules, as_int, idle_message
from hearts_env.games import PRESETS

__all__ = [
    "PRESETS", "REMOVAL_ORDERS", "REMOVAL_TABLES", "Preset", "all_configs", "get_preset", "make_rules",
    "preset_names",
]  # fmt: skip

_COMMON = tuple(f.name for f in fields(Rules) if f.name not in ("preset", "num_players", "game", "options"))
"""The common rules a call may set (the preset sets ``game``; ``num_players`` is an argument)."""
_COMMON_DEFAULTS = {f.name: f.default for f in fields(Rules) if f.name != "options"}
_EXTRA_OPTIONS = ("removal", "version")


def preset_names(game: str | None = None) -> list[str]:
    """Names of every preset (only ``game``'s: ``"hearts"`` or ``"smear"``, if given)."""
    return [name for name, p in PRESETS.items() if game in (None, p.game)]


def get_preset(name: str) -> Preset:
    """The preset called ``name``; a clear error lists the known ones."""
    try:
        return PRESETS[name]
    except KeyError:
        raise ValueError(f"unknown preset {name!r}: choose one of {', '.join(PRESETS)}") from None


def make_rules(
    preset: str = "hearts", num_players: int | None = None, reading: str | None = None, **options: Any
) -> Rules:
    """Validated :class:`Rules` for ``preset`` with ``options`` (docs/rules.md names) applied:
    the common rules and the preset's family's options (``Rules.options``).

    Raises ``ValueError`` for an unknown preset, reading or option, another family's option, an
    env setting (``episode``, ``illegal_action``: the env's and the ``Table``'s), a player count
    outside the preset's range, or option values the rules reject.
    """
    spec = get_preset(preset)
    record = _options_record(spec)
    given = dict(options)  # the options named in this call (not those of a reading or version)
    n = spec.default_players if num_players is None else as_int("num_players", num_players)
    if n not in spec.counts:
        allowed = (
            ", ".join(map(str, spec.counts)) if spec.player_counts else f"{spec.players[0]}-{spec.players[1]}"
        )
        raise ValueError(f"{preset} is for {allowed} players, got num_players={n!r}")
    if reading is not None:
        if not isinstance(reading, str) or reading not in spec.readings:
            known = ", ".join(spec.readings) or "none"
            raise ValueError(f"{preset} has no reading {reading!r}; its readings: {known}")
        options = _merge(spec.readings[reading], options)
    if "version" in options:
        options = dict(options)
        version = options.pop("version")
        if not isinstance(version, str) or version not in spec.versions:
            known = ", ".join(spec.versions) or "none"
            raise ValueError(f"{preset} has no version {version!r}; its versions: {known}")
        options = _merge(spec.versions[version], options)
    _refuse_unknown(preset, record, [*options, *spec.options])
    values: dict[str, Any] = dict(spec.options)
    values.update(spec.per_players.get(n, {}))
    for name, value in options.items():
        if name != "removal":
            values[name] = _merged(values.get(name), value)
    if "removal" in given and "removed" in given:
        raise ValueError(
            f"removal={given['removal']!r} and removed={given['removed']!r}: give a removal table or "
            "the removed cards, not both"
        )
    removal = options.get("removal", spec.removal)
    if not isinstance(removal, str) or removal not in {**REMOVAL_TABLES, **REMOVAL_ORDERS}:
        known = ", ".join([*REMOVAL_TABLES, *REMOVAL_ORDERS])
        raise ValueError(f"unknown removal table {removal!r}: choose one of {known}")
    if record.keeps_leftover(values) and not record.keeps_leftover(spec.options) and "removal" not in options:
        removal = "none"  # a kitty asked for by option takes the cards that do not divide
    if "removed" in options:
        removed = options["removed"]
        if not isinstance(removed, (str, list, tuple)):
            raise TypeError(f"removed must be a list of cards such as ['2C', '2D'], got {removed!r}")
        values["removed"] = tuple(parse_cards(removed))
    elif removal in REMOVAL_ORDERS:
        jokers = values.get("jokers", 0)
        extra = (
            (52 + (jokers if isinstance(jokers, int) else 0)) % n if record.deals_whole_deck(values) else 0
        )
        values["removed"] = tuple(parse_cards(REMOVAL_ORDERS[removal].split()[:extra]))
    else:
        values["removed"] = tuple(parse_cards(REMOVAL_TABLES[removal].get(n, "")))
    values["num_players"] = n
    record.complete(values, options)
    _leave_out_idle(preset, record, values, given, options)
    common = {name: values[name] for name in _COMMON if name in values}
    return Rules(
        preset=preset,
        num_players=n,
        game=spec.game,
        **common,
        options=record(**{name: values[name] for name in record.names() if name in values}),
    )


def _options_record(spec: Preset) -> type[Options]:
    """The options record of ``spec``'s family (the registry's)."""
    try:
        return FAMILY_OPTIONS[spec.game]
    except KeyError:
        known = ", ".join(FAMILY_OPTIONS)
        raise ValueError(f"preset {spec.name} is of game family {spec.game!r}, not one of {known}") from None


def _refuse_unknown(preset: str, record: type[Options], names: list[str]) -> None:
    """A name that is neither a common rule, nor the family's option, nor one of make_rules' own:
    an error saying what it is (an env setting, another family's option) or listing the options."""
    ours = {*_COMMON, *record.names(), *_EXTRA_OPTIONS}
    unknown = sorted(set(names) - ours)
    if not unknown:
        return
    if "game" in unknown:
        raise ValueError(
            f"game is the preset's: {preset} is a {record.title} preset; for another family choose one "
            "of its presets"
        )
    for name in unknown:
        if name in ENV_SETTINGS:
            raise ValueError(
                f"{name} is an env setting, not a rule of the game: give it to the env or the table, "
                f"hearts_env.env({preset!r}, {name}=...) / Table(rules, {name}=...)"
            )
    known = ", ".join(sorted(ours))
    for name in unknown:
        owners = [other.title for other in FAMILY_OPTIONS.values() if name in other.names()]
        if owners:
            raise ValueError(
                f"{name} is a {' and '.join(owners)} option; {preset} is a {record.title} preset, whose "
                f"options are {known}"
            )
    raise ValueError(f"unknown option(s) {unknown} for {preset}; known options: {known}")


def _leave_out_idle(
    preset: str,
    record: type[Options],
    values: dict[str, Any],
    given: Mapping[str, Any],
    options: Mapping[str, Any],
) -> None:
    """Options that cannot matter under ``values`` (the record's :meth:`~Options.idle`): an error
    where this call names one (whatever its value) or a reading or version sets one to something
    else than its default; a preset's own value goes back to the default (the nine-card game's
    joker points without jokers)."""
    full = {**_COMMON_DEFAULTS, **{name: record.default(name) for name in record.names()}, **values}
    idle = record.idle(full)
    refused = [name for name in idle if name in given or (
        name in options and full[name] != record.default(name))]  # fmt: skip
    if refused:
        raise ValueError(idle_message(refused, idle, preset))
    for name in idle:
        if name in values:
            values[name] = record.default(name)


def _merge(reading: Mapping[str, Any], options: Mapping[str, Any]) -> dict[str, Any]:
    """``options`` over a reading's or a version's (:func:`_merged` each)."""
    merged = dict(reading)
    for key, value in options.items():
        merged[key] = _merged(merged.get(key), value)
    return merged


def _merged(base: Any, value: Any) -> Any:
    """An option's ``value`` over its ``base``: a mapping over a mapping is merged into it (a
    table of card values changes the cards it names), any other value replaces it."""
    return {**base, **value} if isinstance(base, Mapping) and isinstance(value, Mapping) else value


def all_configs(game: str | None = None) -> list[tuple[str, int]]:
    """Every (preset, player count) pair the presets allow (only ``game``'s: ``"hearts"`` or
    ``"smear"``, if given)."""
    return [(name, n) for name, p in PRESETS.items() for n in p.counts if game in (None, p.game)]
