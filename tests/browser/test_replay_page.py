"""The replay page (`bagm replay LOG --html`) in a real browser: it loads clean and offline,
stepping moves the bases to the positions in the log, the last step shows the final VP."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bagm.cli.app import app
from bagm.render.narration import events_from_lines, narrate
from browser.kit import BrowserPage, assert_looks_like

REPO = Path(__file__).resolve().parents[2]
LOG = REPO / "tests" / "golden" / "example_mission11.jsonl"


@pytest.fixture(scope="module")
def replay_page(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    out = tmp_path_factory.mktemp("replay") / "game.html"
    here = os.getcwd()
    os.chdir(REPO)  # the golden log names its rosters relative to the repository
    try:
        r = CliRunner().invoke(app, ["replay", str(LOG), "--html", str(out)])
    finally:
        os.chdir(here)
    assert r.exit_code == 0, r.output
    yield out


def _events() -> list[dict]:
    return events_from_lines(LOG.read_text().splitlines())


def _has_fight_and_losses(events: list[dict]) -> bool:
    live = {e["unit"] for e in events if e["e"] == "destroyed"}
    return any(e["e"] in ("pile_in", "consolidate") for e in events) and any(
        e["e"] == "attack" and e.get("removed_models") and e["target"] not in live for e in events) and any(
        e["e"] == "attack" and _rolls_all(e["dice"]) for e in events)


def _rolls_all(dice: dict[str, list[int]]) -> bool:
    """Hit, wound and save rolls are all among an attack's logged dice."""
    return all(any(k.startswith(what) for k in dice) for what in ("hit", "wound", "save"))


@pytest.fixture(scope="module")
def fight_game(tmp_path_factory: pytest.TempPathFactory) -> tuple[list[dict], Path]:
    """A greedy game (the first seed of a fixed list whose log has a Pile-in or Consolidation,
    an attack that removed models of a unit that lived on, and an attack rolling hits, wounds and
    saves) and its replay page: the tests read what the page shows of the log, whichever game."""
    from bagm.engine.log.record import play_bots
    from bagm.render.narration import mission_map
    from bagm.render.replay_html import html

    for seed in range(1, 21):
        events = events_from_lines(play_bots(11, str(REPO / "rosters/adepta_sororitas_pious_protectors.yaml"),
                                             str(REPO / "rosters/adeptus_mechanicus_response_clade.yaml"),
                                             seed).lines)
        if _has_fight_and_losses(events):
            out = tmp_path_factory.mktemp("fight") / "game.html"
            out.write_text(html(events, mission_map(events)), encoding="utf-8")
            return events, out
    raise AssertionError("no game of seeds 1-20 has a fight with losses: pick other rosters")


def _bases(page: BrowserPage, uid: str) -> list[list[float]]:
    return page.raw.eval_on_selector_all(
        f'#bases circle[data-unit="{uid}"]:not(.gone)',
        "cs => cs.map(c => [Number(c.getAttribute('cx')), Number(c.getAttribute('cy'))])")


def _step(page: BrowserPage) -> int:
    return int(page.raw.get_attribute("body", "data-step"))


def test_the_page_is_self_contained_and_loads_clean(page: BrowserPage, replay_page: Path) -> None:
    html = replay_page.read_text()
    assert "http://" not in html.replace("http://www.w3.org/2000/svg", "") and "https://" not in html
    assert "<script src" not in html and "<link" not in html
    page.open(replay_page)
    page.assert_clean()
    steps = narrate(_events())
    assert page.raw.inner_text("#counter") == f"Step 1 of {len(steps)}"
    assert page.raw.inner_text("#heading") == steps[0].heading
    # the first step's narration, line by line, beside the board
    assert page.raw.eval_on_selector_all("#lines li", "ls => ls.map(l => l.textContent)") == steps[0].lines


def test_stepping_forward_and_back_moves_the_bases_to_the_logged_positions(page: BrowserPage,
                                                                         replay_page: Path) -> None:
    events = _events()
    steps = narrate(events)
    # the first logged move of the battle, and where that unit stood before it
    k, move = next((i, e) for i, e in enumerate(events) if e["e"] == "move" and e.get("at"))
    uid = move["unit"]
    before = next(e["at"] for e in reversed(events[:k]) if e.get("unit") == uid and e.get("at"))
    target = next(s.index for s in steps if s.first <= k < s.last)
    page.open(replay_page)
    for _ in range(target):
        page.raw.keyboard.press("ArrowRight")
    assert _step(page) == target
    assert _bases(page, uid) == move["at"]
    page.raw.keyboard.press("ArrowLeft")
    assert _step(page) == target - 1
    assert _bases(page, uid) == before
    # the buttons do the same
    page.raw.click("#next")
    assert _step(page) == target and _bases(page, uid) == move["at"]
    page.raw.click("#prev")
    assert _bases(page, uid) == before
    page.assert_clean()


def _logged_board(events: list[dict]) -> list[dict[str, list]]:
    """Each step's bases as the log gives them, followed here without the page's code: ``at``
    positions, less the models each event names in ``removed_models``."""
    removing = {"attack": "target", "hazardous": "unit", "coherency": "unit", "desperate_escape": "unit"}
    here: dict[str, list] = {}
    out = []
    for s in narrate(events):
        for e in events[s.first:s.last]:
            if e.get("at") and e["e"] in ("setup", "move", "charge_move", "pile_in", "consolidate"):
                here[e["unit"]] = e["at"]
            elif e["e"] in removing and e.get("removed_models"):
                uid = e[removing[e["e"]]]
                here[uid] = [p for i, p in enumerate(here[uid]) if i not in e["removed_models"]]
            elif e["e"] == "destroyed":
                here.pop(e["unit"], None)
        out.append({u: list(m) for u, m in here.items() if m})
    return out


def test_every_step_shows_every_base_where_the_log_puts_it(page: BrowserPage, replay_page: Path) -> None:
    events = _events()
    want = _logged_board(events)
    page.open(replay_page)
    for i, board in enumerate(want):
        if i:
            page.raw.keyboard.press("ArrowRight")
        got = page.raw.eval_on_selector_all(
            "#bases circle:not(.gone)",
            "cs => cs.map(c => [c.dataset.unit, Number(c.getAttribute('cx')), Number(c.getAttribute('cy'))])")
        shown: dict[str, list] = {}
        for uid, x, y in got:
            shown.setdefault(uid, []).append([x, y])
        assert shown == board, f"step {i + 1}"
    page.assert_clean()


def test_a_consolidation_moves_the_bases_and_casualties_fall_where_they_stood(
        page: BrowserPage, fight_game: tuple[list[dict], Path]) -> None:
    events, replay_page = fight_game
    steps = narrate(events)
    k, con = next((i, e) for i, e in enumerate(events) if e["e"] in ("pile_in", "consolidate"))
    target = next(s.index for s in steps if s.first <= k < s.last)
    page.open(replay_page)
    page.raw.evaluate(f"window.bagmReplay.show({target})")
    assert _bases(page, con["unit"]) == con["at"]
    # an attack that removed models of a unit that lived on: they fall in that step, outlined
    board = _logged_board(events)
    step_of = {i: s for s in steps for i in range(s.first, s.last)}
    k, hit = next((i, e) for i, e in enumerate(events) if e["e"] == "attack" and e["removed_models"]
                  and e["target"] in board[step_of[i].index])
    s = step_of[k]
    before = board[s.index - 1][hit["target"]]
    fell = [p for i, p in enumerate(before) if i in hit["removed_models"]]
    page.raw.evaluate(f"window.bagmReplay.show({s.index})")
    shown = page.raw.eval_on_selector_all(
        f'#bases circle.fell[data-unit="{hit["target"]}"]',
        "cs => cs.map(c => [Number(c.getAttribute('cx')), Number(c.getAttribute('cy'))])")
    assert all(p in shown for p in fell) and fell
    page.raw.evaluate(f"window.bagmReplay.show({s.index + 1})")  # the next step: greyed, no longer outlined
    assert not page.raw.eval_on_selector_all(f'#bases circle.fell[data-unit="{hit["target"]}"]', "cs => cs.length")
    assert page.raw.eval_on_selector_all(f'#bases circle.gone[data-unit="{hit["target"]}"]', "cs => cs.length") >= len(fell)


def test_battle_shock_shows_until_the_log_ends_it(page: BrowserPage, tmp_path: Path) -> None:
    from bagm.render.narration import mission_map
    from bagm.render.replay_html import html

    events = _events()
    steps = narrate(events)
    # A3 Battle-shocked in one step, the end of it logged some steps later (a renderer test: the
    # page follows the log whatever it says)
    a, b = steps[40], steps[60]
    events = (events[:a.last - 1] + [{"e": "battleshock", "unit": "A3", "shocked": True}] + events[a.last - 1:b.last - 1]
              + [{"e": "battleshock_ends", "unit": "A3"}] + events[b.last - 1:])
    path = tmp_path / "shock.html"
    path.write_text(html(events, mission_map(events)), encoding="utf-8")
    page.open(path)
    for i, shocked in ((39, False), (40, True), (59, True), (60, False)):
        page.raw.evaluate(f"window.bagmReplay.show({i})")
        n = page.raw.eval_on_selector_all('#bases circle.shocked[data-unit="A3"]', "cs => cs.length")
        assert (n > 0) == shocked, i
        assert ("Battle-shocked" in page.raw.inner_text('#units li[data-unit="A3"]')) == shocked
    page.assert_clean()


def test_phase_buttons_and_the_slider(page: BrowserPage, replay_page: Path) -> None:
    steps = narrate(_events())
    page.open(replay_page)
    page.raw.click("#next-phase")
    first_new = next(s.index for s in steps if s.heading != steps[0].heading)
    assert _step(page) == first_new
    assert page.raw.inner_text("#heading") == steps[first_new].heading
    page.raw.click("#prev-phase")
    assert _step(page) == 0
    page.raw.fill("#slider", "50")
    page.raw.dispatch_event("#slider", "input")
    assert _step(page) == 50 and page.raw.inner_text("#heading") == steps[50].heading
    page.assert_clean()


def test_the_last_step_shows_the_final_vp_and_greys_destroyed_units(page: BrowserPage,
                                                                    replay_page: Path) -> None:
    events = _events()
    end = next(e for e in events if e["e"] == "end")
    destroyed = sorted({e["unit"] for e in events if e["e"] == "destroyed"})
    page.open(replay_page)
    page.raw.keyboard.press("End")
    assert page.raw.inner_text("#vp-a") == str(end["vp"]["A"])
    assert page.raw.inner_text("#vp-b") == str(end["vp"]["B"])
    assert "The battle ends" in page.raw.inner_text("#lines")
    gone = page.raw.eval_on_selector_all("#units li.gone", "ls => ls.map(l => l.dataset.unit)")
    assert sorted(gone) == destroyed and destroyed
    assert page.raw.eval_on_selector_all("#bases circle.gone", "cs => cs.length") >= 1
    page.raw.keyboard.press("Home")
    assert _step(page) == 0 and page.raw.inner_text("#vp-a") == "0"


def test_attack_dice_are_shown_for_a_step_with_attacks(page: BrowserPage,
                                                      fight_game: tuple[list[dict], Path]) -> None:
    events, replay_page = fight_game
    steps = narrate(events)
    # a step whose first attack rolled hits, wounds and saves
    s = next(s for s in steps if s.attacks and _rolls_all(s.attacks[0]["dice"]))
    page.open(replay_page)
    page.raw.evaluate(f"window.bagmReplay.show({s.index})")
    rows = page.raw.eval_on_selector_all("#dice-table tbody tr",
                                         "rs => rs.map(r => [...r.cells].map(c => c.textContent))")
    a = s.attacks[0]
    assert rows[0] == [f"{a['unit']} → {a['target']}: {a['weapon']}", str(a["attacks"]), str(a["hits"]),
                       str(a["wounds"]), str(a["wounds"] - a["unsaved"]), str(a["lost"]), str(a["destroyed"])]
    # the single dice under it, each as logged, hit rolls before wound rolls before saves
    from bagm.render.narration import dice_text

    assert rows[1] == [dice_text(a["dice"])]
    assert rows[1][0].index("hit ") < rows[1][0].index("wound ") < rows[1][0].index("save ")
    for values in a["dice"].values():
        assert " ".join(map(str, values)) in rows[1][0]


def test_user_text_is_escaped(page: BrowserPage, tmp_path: Path) -> None:
    from bagm.render.replay_html import html

    events = [json.loads(x) for x in LOG.read_text().splitlines()[:12]]
    events[1]["units"]["A"][0] = "A1 <img src=x onerror=alert(1)></script><b>Boss"
    path = tmp_path / "evil.html"
    path.write_text(html(events, None), encoding="utf-8")
    page.open(path)
    page.assert_clean()
    assert "<img src=x" in page.raw.inner_text("header")
    assert page.raw.eval_on_selector_all("img", "is => is.length") == 0


def test_screenshot_of_the_replay_page(page: BrowserPage, replay_page: Path) -> None:
    page.open(replay_page)
    page.raw.evaluate("window.bagmReplay.show(60)")
    assert_looks_like(page.screenshot("replay-step-61", 1280, 800), "replay_step61")


def test_a_link_names_its_step(page: BrowserPage, replay_page: Path) -> None:
    steps = narrate(_events())
    page.open(replay_page.resolve().as_uri() + "#step-20")
    assert _step(page) == 19 and page.raw.inner_text("#heading") == steps[19].heading
    page.raw.keyboard.press("ArrowRight")
    assert page.raw.evaluate("location.hash") == "#step-21"
    page.assert_clean()
