"""Skirmish Battles: the comments a user writes in a campaign file survive every command that
rewrites it (through bagm.io.roundtrip, the project's comment-keeping YAML edits)."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from bagm.cli.app import app
from bagm.skirmish.campaign import load_campaign
from bagm.skirmish.commented import has_comments, rewrite

REPO = Path(__file__).parents[1]
EXAMPLE = REPO / "rosters" / "skirmish" / "EXAMPLE-overlay.skirmish-data.yaml"
ORKS = REPO / "rosters" / "skirmish" / "orks.skirmish.yaml"
D = ["--data", str(EXAMPLE)]


def run(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(app, list(args))


def comments(text: str) -> list[str]:
    return [m.group(0).strip() for m in re.finditer(r"#[^\n]*", text)]


def annotate(path: Path) -> list[str]:
    """Comments of every kind: full lines at the top level and inside the unit, after a Pack,
    at the end of a line whose value changes, before the history and at the very end."""
    text = path.read_text()
    for old, new in [
        ("seed: 5\n", "seed: 5  # the dice of our league\n# the unit as we founded it\n"),
        ("    pool: 24\n", "    pool: 24  # our savings\n"),
        ("    founded: 5\n", "    founded: 5\n  # the Grots below are Snikrot's\n"),
        ("    weapons:\n", "    # his kit\n    weapons:\n"),
        ("history:\n", "# --- what happened ---\nhistory:\n"),
    ]:
        assert old in text, old
        text = text.replace(old, new, 1)
    path.write_text(text + "# the end of the file\n")
    return comments(path.read_text())


def test_a_comment_survives_every_campaign_command_that_writes(tmp_path: Path) -> None:
    camp = tmp_path / "orks.skirmish-campaign.yaml"
    assert run("skirmish", "campaign", "start", str(ORKS), str(camp), "--seed", "5", *D).exit_code == 0
    kept = annotate(camp)
    steps = [
        ("battle", "--scenario", "hunt", "--result", "won", "--ooa", "Gorzag", "--ooa", "Da Boyz:2",
         "--enemy-ooa", "1"),
        ("injuries", "--rolls", "4,1,2,3", *D),
        ("points", *D),
        ("buy", "--model", "Gorzag", "--item", "Bosspole", *D),
        ("buy", "--new-pack", "Da Ladz", "--type", "boy", "--models", "1", *D),
        ("sell", "--model", "Gorzag", "--item", "Slugga", *D),
        ("advance", "Gorzag", "--result", "skill", *D),
        ("skill", "Gorzag", "Iron Will", *D),
        ("advance", "Da Boyz", "--result", "breaking_the_mould", "--name", "Snagga", *D),
        ("end", *D),
        ("battle", "--scenario", "cleanse", "--result", "lost", "--killed", "Da Ladz:1"),
    ]
    for command, *args in steps:
        before = camp.read_text()
        result = run("skirmish", "campaign", command, str(camp), *args)
        assert result.exit_code == 0, (command, result.output)
        text = camp.read_text()
        assert text != before, command
        assert comments(text) == kept, command  # every comment, in its order
        assert "pool: " in text and "  # our savings" in text
    c = load_campaign(camp)
    assert c.history[-1]["event"] == "battle" and c.unit["upgraded"][0]["name"] == "Snagga"
    assert [p["name"] for p in c.unit["packs"]] == ["Da Boyz", "Da Grots", "Da Ladz"]
    text = camp.read_text()
    assert text.index("# the Grots below") < text.index("- name: Da Grots")
    assert text.index("# --- what happened ---") + len("# --- what happened ---\n") == text.index("history:")
    assert text.rstrip().endswith("# the end of the file")
    # the same campaign run without comments reads back as the same data
    plain = tmp_path / "plain.skirmish-campaign.yaml"
    assert run("skirmish", "campaign", "start", str(ORKS), str(plain), "--seed", "5", *D).exit_code == 0
    for command, *args in steps:
        assert run("skirmish", "campaign", command, str(plain), *args).exit_code == 0
    assert yaml.safe_load(plain.read_text()) == yaml.safe_load(text)
    assert not has_comments(plain.read_text(), plain.read_text().splitlines(True)[0])


def test_a_refused_command_leaves_a_commented_file_alone(tmp_path: Path) -> None:
    camp = tmp_path / "c.skirmish-campaign.yaml"
    assert run("skirmish", "campaign", "start", str(ORKS), str(camp), "--seed", "5", *D).exit_code == 0
    annotate(camp)
    before = camp.read_text()
    assert run("skirmish", "campaign", "points", str(camp), *D).exit_code == 2
    assert camp.read_text() == before


TEXT = """\
# top
packs:
- name: A   # first
  models: 3
# about B
- name: B
  models: 4
# about C
- name: C
  models: 5
skills: [x, y, z]  # chosen
note: kept   # eol
"""


def test_a_pack_removed_from_the_middle_keeps_the_comments_around_it() -> None:
    new = {"packs": [{"name": "A", "models": 2}, {"name": "C", "models": 5}],
           "skills": ["x", "z"], "note": "kept"}
    out = rewrite("t", TEXT, new)
    assert yaml.safe_load(out) == new
    assert comments(out) == ["# top", "# first", "# about B", "# about C", "# chosen", "# eol"]
    assert "models: 2" in out and out.index("# about C") < out.index("name: C")


def test_values_that_change_kind_keep_the_comments_after_them() -> None:
    text = "a: 1\npending: null\n# before the history\nhistory:\n- n: 1\n"
    out = rewrite("t", text, {"a": 1, "pending": {"step": "x", "l": [1]}, "history": [{"n": 1}]})
    assert out.index("step: x") < out.index("# before the history") < out.index("history:")
    back = rewrite("t", out, {"a": 1, "pending": None, "history": [{"n": 1}, {"n": 2}]})
    assert yaml.safe_load(back) == {"a": 1, "pending": None, "history": [{"n": 1}, {"n": 2}]}
    assert back.index("pending:") < back.index("# before the history") < back.index("history:")


def test_strings_read_back_as_strings() -> None:
    new = {"packs": [], "skills": ["yes", "1:30", "on", "12"], "note": "null"}
    assert yaml.safe_load(rewrite("t", TEXT, new)) == new


scalars = st.one_of(st.none(), st.booleans(), st.integers(-5, 99),
                    st.sampled_from(["A", "B", "yes", "no", "1", "x y", "# not a comment", "a: b"]))
values = st.recursive(scalars, lambda inner: st.one_of(
    st.lists(inner, max_size=4),
    st.dictionaries(st.sampled_from(["name", "n", "models", "skills", "k"]), inner, max_size=4)),
    max_leaves=12)


@settings(max_examples=60, deadline=None)
@given(st.dictionaries(st.sampled_from(["packs", "skills", "note", "other"]), values, min_size=1))
def test_any_new_data_reads_back_exactly(new: dict[str, Any]) -> None:
    assert yaml.safe_load(rewrite("t", TEXT, new)) == new
