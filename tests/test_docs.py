"""The shipped rules reference, ``docs/rules.md``, and ``hearts-env rules`` match the rules data.

The generated parts of the document are :mod:`hearts_env.describe`'s output: editing a preset
or a rule without regenerating them (``python -m hearts_env.describe --write docs/rules.md``)
fails here. The content checks make sure the generator reads the data rather than saying the
same thing for every preset.
"""

from __future__ import annotations

import re
from dataclasses import fields
from pathlib import Path

import pytest

import hearts_cli
from hearts_cli.rules import terminal_text
from hearts_env import describe as describe_module
from hearts_env.core.rules import Rules
from hearts_env.describe import (
    blocks,
    describe,
    describe_options,
    describe_preset,
    preset_index,
    regenerate,
    topics,
)
from hearts_env.games import BUILT_IN, FAMILIES
from hearts_env.presets import PRESETS, make_rules

ROOT = Path(__file__).resolve().parent.parent
DOC = ROOT / "docs" / "rules.md"


@pytest.fixture(scope="module")
def document() -> str:
    return DOC.read_text(encoding="utf-8")


# ---------------------------------------------------------------------- docs/rules.md
def test_the_document_has_a_section_for_every_preset(document: str) -> None:
    found = blocks(document)
    assert sorted(k[len("preset:") :] for k in found if k.startswith("preset:")) == sorted(PRESETS)
    for name in PRESETS:
        assert f"\n## `{name}`\n" in document


@pytest.mark.parametrize("name", list(PRESETS))
def test_each_section_is_the_generated_text(document: str, name: str) -> None:
    assert blocks(document)[f"preset:{name}"] == describe_preset(name), (
        f"the {name} section is out of date: python -m hearts_env.describe --write docs/rules.md"
    )


def test_the_index_and_the_options_table_are_generated(document: str) -> None:
    found = blocks(document)
    assert found["index"] == preset_index()
    assert found["options"] == describe_options()
    assert regenerate(document) == document


def test_the_document_says_how_to_regenerate_it(document: str) -> None:
    top = document[: document.index("## Introduction")]
    assert "python -m hearts_env.describe --write docs/rules.md" in top
    assert "hearts-env rules PRESET" in top


def test_every_preset_has_hand_written_notes(document: str) -> None:
    for name in PRESETS:
        after = document.split(f"<!-- end preset:{name} -->", 1)[1]
        notes = after.split("<!-- begin ", 1)[0]
        assert "### Notes (hand-written)" in notes, name
        assert "To be written." not in notes, name


def test_regenerating_rewrites_a_stale_block_and_adds_a_missing_section(document: str) -> None:
    stale = document.replace("Q♠ 13; K♠ 10; A♠ 7", "Q♠ 13; K♠ 7; A♠ 10", 1)
    assert stale != document and regenerate(stale) == document
    start = document.index("<!-- begin preset:pink_lady -->")
    end = document.index("<!-- end preset:pink_lady -->") + len("<!-- end preset:pink_lady -->")
    without = document[:start] + document[end:]
    added = regenerate(without)
    assert blocks(added)["preset:pink_lady"] == describe_preset("pink_lady")
    with pytest.raises(ValueError, match="do not exist"):
        regenerate(document + "\n<!-- begin preset:no_such_game -->\n<!-- end preset:no_such_game -->\n")
    with pytest.raises(ValueError, match="twice"):
        regenerate(document + document[start:end])


def test_the_check_command_reports_an_out_of_date_file(tmp_path, document: str, capsys) -> None:
    path = tmp_path / "rules.md"
    path.write_text(document.replace("every heart 1", "every heart 2", 1), encoding="utf-8")
    assert describe_module.main(["--check", str(path)]) == 1
    assert describe_module.main(["--write", str(path)]) == 0
    assert describe_module.main(["--check", str(path)]) == 0
    assert path.read_text(encoding="utf-8") == document
    capsys.readouterr()


def test_the_options_table_holds_every_field_with_its_docstring() -> None:
    """The common rules, then each family's options (the fields of its record)."""
    table = describe_options()
    for f in fields(Rules):
        if f.name not in ("preset", "options"):
            assert f"| `{f.name}` |" in table, f.name
    for game in BUILT_IN:
        section = table.split(f"The {FAMILIES[game].title} family's options")[1].split("family's options")[0]
        for name in FAMILIES[game].options.names():
            assert f"| `{name}` |" in section, (game, name)
    assert "Points each opponent scores on an old moon" in table  # moon_points' docstring
    assert "Cards dealt to each player (None: the whole deck less" in table  # Smear's deal_size
    assert "RULES.md" not in table and "``" not in table and ":meth:" not in table


# ---------------------------------------------------------------------- hearts-env rules
MARKUP = re.compile(r"\[[^\]]*\]\([^)]*\)|<!--|-->|\*\*|`|^#+ |^\|", re.M)
"""Markdown that must not reach the terminal: links, HTML comments, bold, code, headings, table pipes."""


@pytest.mark.parametrize("name", ["hearts", "black_maria", "cancellation_hearts", "partnership_hearts"])
def test_the_rules_command_prints_the_preset(name: str, capsys) -> None:
    assert hearts_cli.main(["rules", name, "--markdown"]) == 0
    assert capsys.readouterr().out == describe_preset(name) + "\n"
    assert hearts_cli.main(["rules", name]) == 0
    out = capsys.readouterr().out
    assert out == terminal_text(describe_preset(name)) + "\n"
    assert out.startswith(f"{name}\n{'=' * len(name)}\n\n{PRESETS[name].description}\n")
    assert "\n• Players and cards. " in out and "\n• Card points. " in out
    assert ("\nBy player count\n---" in out) == (len(PRESETS[name].counts) > 1)
    assert not MARKUP.search(out), MARKUP.search(out)


def test_the_rules_command_describes_configured_rules(capsys) -> None:
    argv = ["rules", "black_maria", "--players", "4", "--reading", "ace_ten", "--option", "moon=new"]
    assert hearts_cli.main(argv + ["--markdown"]) == 0
    out = capsys.readouterr().out
    rules = make_rules("black_maria", 4, reading="ace_ten", moon="new")
    assert out.startswith('## `black_maria`: 4 players, reading="ace_ten", moon=new\n\n')
    assert out.endswith(describe(rules) + "\n")
    assert hearts_cli.main(argv) == 0
    out = capsys.readouterr().out
    heading = 'black_maria: 4 players, reading="ace_ten", moon=new'
    assert out.startswith(f"{heading}\n{'=' * len(heading)}\n\n• Players and cards. 4 players")
    assert out.endswith(terminal_text(describe(rules)) + "\n")
    assert "A♠ 10; K♠ 7" in out and "−43" in out and not MARKUP.search(out)


def test_the_rules_command_lists_the_presets(capsys) -> None:
    assert hearts_cli.main(["rules", "--markdown"]) == 0
    assert capsys.readouterr().out == preset_index() + "\n"
    assert hearts_cli.main(["rules"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["preset", "players", "description"] and set(lines[1]) == {"-", " "}
    column = lines[0].index("description")  # every description starts in the header's column
    assert [line.split()[0] for line in lines[2:]] == list(PRESETS)
    for line, (name, spec) in zip(lines[2:], PRESETS.items()):
        assert line[column:] == spec.description.replace("`", ""), name
    assert not MARKUP.search("\n".join(lines))


def test_no_markdown_reaches_the_terminal_from_any_preset_or_configuration(capsys) -> None:
    """Every preset's text, every player count's and the index, as the command prints them."""
    for name, spec in PRESETS.items():
        texts = [describe_preset(name)] + [describe(make_rules(name, n)) for n in spec.counts]
        for text in texts:
            out = terminal_text(text)
            found = MARKUP.search(out)
            assert not found, (name, found.group(0), out[max(0, found.start() - 80) : found.end() + 80])
    assert not MARKUP.search(terminal_text(preset_index()))


def test_the_terminal_text_renders_each_markdown_element() -> None:
    text = (
        "<!-- begin preset:x -->\n## `x`: a **game**\n\nSee [the rules](rules.md#options) and "
        "[a site](https://example.org).\n\n- **One.** first\n  - `inner` item\n\n"
        "| a | long header |\n|---|---|\n| `wide cell` | 2 |\n<!-- end preset:x -->\n"
    )
    assert terminal_text(text) == (
        "x: a game\n=========\n\nSee the rules and a site (https://example.org).\n\n"
        "• One. first\n  ◦ inner item\n\n"
        "a          long header\n---------  -----------\nwide cell  2"
    )
    styled = terminal_text("## Title\n\n- **bold** words", styled=True)
    assert styled == "\x1b[1mTitle\x1b[0m\n-----\n\n• \x1b[1mbold\x1b[0m words".replace("-----", "=====")
    wrapped = terminal_text("- " + "word " * 30 + "`make_rules(a, b)`", width=40)
    lines = wrapped.splitlines()
    assert len(lines) > 3 and all(len(line) <= 40 for line in lines) and lines[1].startswith("  word")
    assert "make_rules(a, b)" in lines[-1]  # a code span is never broken across lines


@pytest.mark.parametrize(
    "argv, message",
    [
        (["rules", "no_such_game"], "unknown preset 'no_such_game'"),
        (["rules", "hearts", "--reading", "nope"], "hearts has no reading 'nope'"),
        (["rules", "hearts", "--players", "9"], "hearts is for 3-6 players"),
        (["rules", "hearts", "--option", "moon=sideways"], "moon='sideways' is not known"),
    ],
)
def test_the_rules_command_refuses_bad_input_in_one_line(argv: list[str], message: str, capsys) -> None:
    assert hearts_cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.startswith("hearts-env: error: ") and message in err and err.count("\n") == 1


# ---------------------------------------------------------------------- the text follows the data
def test_black_maria_names_its_spades_and_the_pass_right() -> None:
    text = describe_preset("black_maria")
    assert "Q♠ 13" in text and "K♠ 10" in text and "A♠ 7" in text
    assert "to the player on his right every deal" in text
    assert "worth 43 in all" in text and "| 6 | 2♣, 2♦, 2♠, 2♥ | 8 | 42 |" in text
    assert "No moon" in text


def test_cancellation_hearts_has_two_decks_and_a_kitty() -> None:
    text = describe_preset("cancellation_hearts")
    assert "Two 52-card decks" in text and "104 cards" in text
    assert "cancel each other" in text and "kitty" in text
    assert "| 7 | — | 14 | kitty 6 | 52 |" in text and "| 8 | — | 13 | — | 52 |" in text


def test_domino_hearts_has_the_stock() -> None:
    text = describe_preset("domino_hearts")
    assert "Each player is dealt 6; the other 28 cards are a face-down stock" in text
    assert "draws from the stock" in text and "reaches 31" in text
    assert "| 3 | — | 6 | stock 34 | 13 |" in text


def test_auction_hearts_lists_the_bids() -> None:
    text = describe_preset("auction_hearts")
    assert "`bid:1` … `bid:13`" in text and "`suit:C`, `suit:D`, `suit:H`, `suit:S`" in text
    assert "70 actions" in text and "No passing." in text
    assert "`bid:1` … `bid:8`" in describe(make_rules("auction_hearts", max_bid=8))


def test_other_presets_read_their_data() -> None:
    assert "Q♣, Q♦, Q♥, Q♠ 13 each; every other heart 1" in describe_preset("chasse_coeur")
    assert "declares Général (`general`)" in describe_preset("chasse_coeur")
    assert "every other player scores 54 more" in describe_preset("chasse_coeur")
    assert "Q♠ 50; A♥ 15; J♥, Q♥, K♥ 10 each; every other heart its face value" in describe_preset(
        "greek_hearts"
    )
    assert "every other player scores 150 more" in describe_preset("greek_hearts")
    assert "10♦ −10" in describe_preset("omnibus") and "scores −26" in describe_preset("omnibus")
    assert "| 3 | — | 18 | 2 | 26 |" in describe_preset("joker_hearts")
    assert "A widow of 4 cards" in describe(make_rules("heartsette", 3))
    modern = describe(make_rules("heartsette", 3, reading="modern"))  # the cycle for 3 players
    assert "the cycle left, right, hold (no pass)" in modern and "Not available" not in describe_preset(
        "heartsette"
    )
    assert "seats 0 and 2 against seats 1 and 3" in describe_preset("partnership_hearts")
    assert "The holder of 10♦ becomes the bidder's silent partner" in describe_preset("partnership_hearts")


def test_changing_an_option_changes_its_topic_only() -> None:
    base = topics(make_rules("hearts"))
    for options, label, words in [
        ({"moon": "new"}, "Moon", "the shooter scores −26"),
        ({"moon": "shooter_choice"}, "Moon", "`moon:add`"),
        ({"pass_count": 2}, "Passing", "passes 2 cards"),
        ({"first_lead": "any_club"}, "First lead", "with any club"),
        ({"hearts_break": "heart_or_queen"}, "Leading hearts", "a heart or Q♠ has been played"),
        ({"no_points_first_trick": False}, "First trick", "Any card may be played"),
        ({"card_points": {"JD": -10}}, "Card points", "J♦ −10"),
        ({"target_score": 50}, "Game", "reaches 50"),
        ({"club_play": True}, "Play", "must play it at the first chance"),
        ({"discard_first": "JS"}, "Play", "must discard J♠"),
        ({"no_tricks_bonus": -5}, "Card points", "takes no trick scores −5"),
    ]:
        changed = topics(make_rules("hearts", **options))
        assert words in changed[label], (options, changed[label])
        assert {k for k in base.keys() | changed.keys() if base.get(k) != changed.get(k)} <= {
            label,
            "Moon",
            "Actions",
        }, options


def test_every_configuration_can_be_described() -> None:
    for name, spec in PRESETS.items():
        for n in spec.counts:
            text = describe(make_rules(name, n))
            assert text.startswith(
                f"- **Players and cards.** {n} players" + ("." if spec.game == "hearts" else ",")
            )
            assert not re.search(r"\b(None|True|False)\b", text), (name, n)


def test_code_and_docs_point_to_the_project_s_own_rules_not_to_an_outside_specification() -> None:
    """The repository's rules are docs/rules.md and docs/readings.md; the steering file the
    project was specified from is not part of it, so no file may send a reader there."""
    import subprocess

    tracked = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "*.py", "*.md", "*.toml", "*.txt"],
        capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    name = "RULES" + ".md"
    naming = [
        p for p in tracked if p != "tests/test_docs.py" and name in (ROOT / p).read_text(encoding="utf-8")
    ]
    assert not naming, f"these files point to {name}: {naming}"


# ---------------------------------------------------------------------- the documentation site's pages
RESERVED_PAGES = {"search", "genindex", "py-modindex", "modindex"}
"""Pages Sphinx writes itself: a ``docs/search.md`` is overwritten by the search form (``search.html``)."""


def toctree_entries(index: str) -> list[str]:
    """The pages named by the ``{toctree}`` blocks of ``docs/index.md``'s text ``index``, in order."""
    entries = []
    for block in re.findall(r"^```\{toctree\}\n(.*?)^```", index, flags=re.MULTILINE | re.DOTALL):
        entries += [line.strip() for line in block.splitlines() if line.strip() and not line.startswith(":")]
    return entries


def docs_pages() -> list[str]:
    """Every page of the site: the Markdown files of ``docs/``, by name without ``.md``."""
    return sorted(path.stem for path in (ROOT / "docs").glob("*.md"))


def test_no_docs_page_takes_a_name_sphinx_reserves() -> None:
    taken = sorted(RESERVED_PAGES.intersection(docs_pages()))
    assert not taken, f"docs pages named after Sphinx's own pages, which overwrite them: {taken}; rename them"


def test_every_docs_page_is_in_the_table_of_contents_and_every_entry_is_a_page() -> None:
    entries = toctree_entries((ROOT / "docs" / "index.md").read_text(encoding="utf-8"))
    pages = set(docs_pages()) - {"index"}
    assert len(entries) == len(set(entries)), f"pages listed twice in docs/index.md: {entries}"
    assert not pages - set(entries), f"docs pages missing from docs/index.md's toctree: {pages - {*entries}}"
    assert not set(entries) - pages, f"toctree entries without a docs page: {set(entries) - pages}"


def test_the_page_checks_find_a_reserved_name_and_a_page_left_out() -> None:
    index = "# Home\n\n```{toctree}\n:maxdepth: 2\n\nsearch\nrules\n```\n\n```{toctree}\napi\n```\n"
    assert toctree_entries(index) == ["search", "rules", "api"]
    assert RESERVED_PAGES.intersection(toctree_entries(index)) == {"search"}
    assert set(docs_pages()) - {"index"} - set(toctree_entries(index))  # most pages left out


# ---------------------------------------------------------------------- install commands that work
PACKAGE_INSTALL = re.compile(r"hearts-env\[|pip install [\"']?hearts-env\b")
"""An install of hearts-env from a package index (``pip install 'hearts-env[ray]'``): it is not on one,
so from a checkout the command is ``pip install -e ".[ray]"``."""


def test_no_doc_or_message_installs_hearts_env_from_a_package_index() -> None:
    import subprocess

    tracked = subprocess.run(
        ["git", "-C", str(ROOT), "ls-files", "*.py", "*.md", "*.toml", "*.txt", "*.cfg", "Makefile"],
        capture_output=True, text=True, check=True,
    ).stdout.split()  # fmt: skip
    found = [
        f"{name}:{n}: {line.strip()}"
        for name in tracked
        if name != "tests/test_docs.py" and (ROOT / name).is_file()
        for n, line in enumerate((ROOT / name).read_text(encoding="utf-8").splitlines(), 1)
        if PACKAGE_INSTALL.search(line)
    ]
    assert not found, 'not on a package index: say pip install -e ".[EXTRA]"; ' + "\n".join(found)


@pytest.mark.parametrize(
    "line",
    ["pip install 'hearts-env[ray]'", 'pip install "hearts-env[sb3]"', "(install hearts-env[training] to"],
)
def test_the_install_check_finds_an_index_install(line: str) -> None:
    assert PACKAGE_INSTALL.search(line)
    assert not PACKAGE_INSTALL.search('pip install -e ".[training]" in the hearts-env checkout')


def test_the_messages_of_a_missing_extra_say_the_checkout_install(capsys) -> None:
    from evaluation.flags import EXTRAS, install_command, missing_extra

    assert install_command("sb3") == 'pip install -e ".[sb3]" in the hearts-env checkout'
    for module, extra in EXTRAS.items():
        told = missing_extra(ModuleNotFoundError(f"No module named {module!r}", name=module))
        assert told == f"{module} is not installed: {install_command(extra)}"
    for command, extra in [("train", "training"), ("tournament", "ray")]:  # tournament: --ray
        assert hearts_cli.main([command, "--help"]) == 0
        assert install_command(extra) in " ".join(capsys.readouterr().out.split()), command
