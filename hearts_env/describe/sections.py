"""The rules in words by topic, read through the family record (:func:`topics`, :func:`describe`),
and a preset in words: its section of ``docs/rules.md`` (:func:`describe_preset`) and the preset index.

A section adds what a preset of :data:`~hearts_env.presets.PRESETS` says beyond one rules set:
its description line, its player range, a table by player count (the columns its family
declares), and its readings and versions, each described by the topics it changes.
"""

from __future__ import annotations

from hearts_env.core.family import Family
from hearts_env.core.prose import code, join
from hearts_env.core.rules import Rules
from hearts_env.presets import PRESETS, get_preset, make_rules


def _family(game: str) -> Family:
    """The record of family ``game``, asked on use: the registry imports each family's
    description module, so this package is being imported while the registry is built."""
    from hearts_env.games import family_of  # noqa: PLC0415

    return family_of(game)


def topics(rules: Rules) -> dict[str, str]:
    """The description of ``rules`` by topic (label -> sentences), topics that do not apply left out."""
    out = {}
    for label, describe_topic in _family(rules.game).topics:
        text = describe_topic(rules)
        if text:
            out[label] = text
    return out


def describe(rules: Rules) -> str:
    """Markdown: one bullet per topic, every fact read from ``rules``."""
    return "\n".join(f"- **{label}.** {text}" for label, text in topics(rules).items())


def _counts(name: str) -> tuple[int, ...]:
    return get_preset(name).counts


def _variant(name: str, kind: str, key: str) -> str:
    """One reading or version: the topics it changes, at every player count it allows."""
    spec = get_preset(name)
    overrides = spec.readings[key] if kind == "reading" else spec.versions[key]
    default = spec.default_players
    counts = [default] + [n for n in _counts(name) if n != default]
    changed: dict[str, dict[str, list[int]]] = {}  # topic -> its new text -> player counts
    failed: dict[str, list[int]] = {}  # why it cannot be made -> player counts
    at_default: set[str] = set()
    for n in counts:
        base = topics(make_rules(name, n))
        try:
            rules = (
                make_rules(name, n, reading=key) if kind == "reading" else make_rules(name, n, version=key)
            )
        except ValueError as error:
            failed.setdefault(" ".join(str(error).split()), []).append(n)
            continue
        alt = topics(rules)
        for label, _ in _family(spec.game).topics:
            if base.get(label) == alt.get(label) or label in at_default:
                continue  # unchanged, or changed at the default count: described there
            text = alt.get(label, "No longer applies.")
            changed.setdefault(label, {}).setdefault(text, []).append(n)
        if n == default:
            at_default = set(changed)
    sets = ", ".join(code(option) for option in overrides) or "nothing"
    call = code(f'{kind}="{key}"')
    lines = [f"- {call} (sets {sets})" + (":" if changed or failed else ": no change.")]
    for label, texts in changed.items():
        for text, ns in texts.items():
            where = "" if label in at_default else f" (with {join([str(n) for n in ns], 'or')} players)"
            lines.append(f"  - **{label}**{where}. {text}")
    for message, ns in failed.items():
        lines.append(f"  - Not available with {join([str(n) for n in ns], 'or')} players: {message}.")
    return "\n".join(lines)


def _count_table(name: str) -> str:
    """The preset's table by player count: the count, then its family's columns (those that are
    always shown, and the others where the counts differ)."""
    spec = get_preset(name)
    rows = {n: make_rules(name, n) for n in _counts(name)}
    shown = {"players": {n: f"{n} (default)" if n == spec.default_players else str(n) for n in rows}}
    for column in _family(spec.game).columns:
        cells = {n: column.cell(r) for n, r in rows.items()}
        if column.always or len(set(cells.values())) > 1:
            shown[column.title] = cells
    lines = ["| " + " | ".join(shown) + " |", "|" + "---|" * len(shown)]
    lines += ["| " + " | ".join(cells[n] for cells in shown.values()) + " |" for n in rows]
    return "\n".join(lines)


def describe_preset(name: str) -> str:
    """Markdown for one preset: its description, player range, the rules at its default player
    count, what changes with the player count, and each reading and version in words."""
    spec = get_preset(name)
    low, high = spec.players
    players = f"{low}–{high} players" if low != high else f"{low} players"
    if spec.player_counts:
        players = f"{join([str(n) for n in spec.player_counts], 'or')} players"
    parts = [
        f"## {code(name)}",
        spec.description,
        f"{players}, {spec.default_players} by default: "
        f'`make_rules("{name}", num_players=N)`, `hearts-env rules {name} --players N`.',
        f"### With {spec.default_players} players",
        describe(make_rules(name)),
    ]
    if low != high:
        parts += ["### By player count", _count_table(name)]
    record = _family(spec.game)
    if record.rules_doc is not None:
        doc = record.rules_doc
        parts.insert(2, f"The precise readings of every {record.title} rule: [docs/{doc}]({doc}).")
    if spec.readings:
        parts += [
            "### Readings",
            "Other readings of the sources, each a set of options over the preset "
            f'(`make_rules("{name}", reading=...)`); what each changes:',
            "\n".join(_variant(name, "reading", key) for key in spec.readings),
        ]
    if spec.versions:
        parts += [
            "### Versions",
            f'Named versions of the game (`make_rules("{name}", version=...)`); what each changes:',
            "\n".join(_variant(name, "version", key) for key in spec.versions),
        ]
    return "\n\n".join(parts)


def preset_index() -> str:
    """Markdown table of every preset: its name, player range and description line."""
    lines = ["| preset | players | description |", "|---|---|---|"]
    for name, spec in PRESETS.items():
        low, high = spec.players
        players = f"{low}–{high} ({spec.default_players})" if low != high else str(low)
        if spec.player_counts:
            players = f"{', '.join(map(str, spec.player_counts))} ({spec.default_players})"
        lines.append(f"| [{code(name)}](#{name}) | {players} | {spec.description} |")
    return "\n".join(lines)
