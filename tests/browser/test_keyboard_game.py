"""A whole game by keyboard only (issue 32, items 2 and 3), in the served dashboard, in Chromium:
no mouse event anywhere — Tab, the arrow keys, Enter and Space.

* **Learn** (English, 3 players, 3 rounds): the student's secret exhaust choice and every
  placement on the drawn board, the bots stepped with the end-of-round button, until the game is
  over and the result is said; after round 1, *Replay the narration* says the story again in the
  ``aria-live`` region; after a move the board in words (``.dg-board-text``) says the new occupant
  and is the picture's ``aria-describedby`` description.
* **Play** (繁體中文, switched by keyboard; the set-up fold opened by keyboard, 3 players chosen with
  the arrow keys, *Start* pressed): every move on the board until the result table.
* Every control a Tab press reaches has an accessible name (Chromium's own computed name, read
  over the DevTools protocol), in both languages, with the folds open; Tab goes round the page
  and comes back to the first control (no trap).

Where the end of a round is stepped is one helper, :func:`step_the_bots`, so a change of how a
round ends (issue 24) changes one place.
"""

from __future__ import annotations

import re

import pytest

from dungeon_guilds import i18n
from dungeon_guilds.game import DEFAULT_NAMES
from test_dashboard_browser import settle

pytestmark = pytest.mark.browser

ACTIVE_JS = """() => { const e = document.activeElement;
  const t = e && e.closest ? e.closest('[data-target]') : null;
  const box = e && e.closest ? e.closest('.jupyter-widgets, .lm-Widget') : null;
  const cls = (n) => n ? String(n.className && n.className.baseVal !== undefined ? n.className.baseVal : n.className) : '';
  return {target: t ? t.dataset.target : null, disabled: t ? t.getAttribute('aria-disabled') : null,
          cls: cls(e), box: cls(box), tag: e ? e.tagName : '',
          ring: e && e !== document.body ? getComputedStyle(t || e).outlineStyle : 'none',
          text: e ? (e.innerText || e.textContent || '').trim().slice(0, 40) : ''}; }"""


POINTER_JS = """() => { window.dgPointer = 0;
  for (const kind of ['pointerdown', 'mousedown', 'mouseup', 'wheel', 'touchstart'])
    document.addEventListener(kind, () => { window.dgPointer += 1; }, true); }"""


class Keys:
    """The keyboard, and what Chromium's accessibility tree says of the focused element. It
    counts every pointer event the page receives from its creation (:meth:`pointer_events`)."""

    def __init__(self, page):
        self.page = page
        page.evaluate(POINTER_JS)
        self.cdp = page.context.new_cdp_session(page)
        self.nameless: list[dict] = []
        self.presses = 0

    def pointer_events(self) -> int:
        return self.page.evaluate("window.dgPointer")

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)
        self.presses += 1

    def _ax_node(self) -> dict:
        obj = self.cdp.send("Runtime.evaluate", {"expression": "document.activeElement"})["result"]["objectId"]
        nodes = self.cdp.send("Accessibility.getPartialAXTree", {"objectId": obj, "fetchRelatives": False})["nodes"]
        return nodes[0] if nodes else {}

    def focused(self) -> dict:
        active = self.page.evaluate(ACTIVE_JS)
        node = self._ax_node()
        if not (node.get("name", {}).get("value") or "").strip():
            # Chromium builds its accessibility tree after the DOM: a board redrawn a moment ago
            # has no node yet (role "none"); ask again once it has caught up
            self.page.wait_for_timeout(300)
            active, node = self.page.evaluate(ACTIVE_JS), self._ax_node()
        active["role"] = node.get("role", {}).get("value", "")
        active["name"] = (node.get("name", {}).get("value") or "").strip()
        active["description"] = (node.get("description", {}).get("value") or "").strip()
        if active["tag"] != "BODY" and not active["name"]:
            self.nameless.append(active)
        return active

    def reach(self, wanted, limit: int = 150) -> dict:
        """The focused element if it is ``wanted(active)``; else press Tab until it is (fail
        after ``limit`` presses: it cannot be reached by keyboard)."""
        active = self.focused()
        for _ in range(limit):
            if wanted(active):
                return active
            self.press("Tab")
            active = self.focused()
        raise AssertionError(f"not reachable with the Tab key (last focused: {active})")


def target(prefix: str):
    return lambda a: (a["target"] or "").startswith(prefix) and a["disabled"] == "false"


def board(page, root: str) -> dict:
    return page.evaluate("""(root) => { const b = document.querySelector(root + ' .dg-board');
        const s = document.querySelector(root + ' .dg-status .dg-to-move');
        return {round: Number(b.dataset.round), phase: b.dataset.phase, actions: b.dataset.actions,
                locked: b.dataset.locked, seat: s ? Number(s.dataset.seat) : null,
                resolving: b.dataset.resolving || '', step: b.dataset.step || '',
                human: s ? s.dataset.human === '1' : false}; }""", root)


def wait_moved(page, root: str, before: dict) -> None:
    """Until the board shows another position than ``before`` and stops changing."""
    page.wait_for_function("([root, a, p]) => { const b = document.querySelector(root + ' .dg-board');"
                           " return b && (b.dataset.actions !== a || b.dataset.phase !== p); }",
                           arg=[root, before["actions"], before["phase"]], timeout=60_000)
    settle(page, root)


def play_my_turn(page, keys: Keys, root: str) -> None:
    """The student's move on the drawn board: at setup two adventurers then the exhaust button
    (R2.4), else an adventurer of the hand then an allowed slot (the board moves the focus to the
    first allowed slot itself). Enter and Space both used."""
    before = board(page, root)
    if before["phase"] == "setup":
        for key in ("Enter", " "):
            keys.reach(target("hand-"))
            chosen = keys.focused()["target"]
            keys.press(key)
            page.wait_for_selector(f"{root} [data-target='{chosen}'][aria-pressed='true']", timeout=30_000)
            if key == "Enter":
                keys.press("ArrowRight")  # to another adventurer
        keys.reach(target("exhaust"))
    else:
        keys.reach(target("hand-"))
        keys.press("Enter")
        page.wait_for_selector(f"{root} [data-target^='hand-'][aria-pressed='true']", timeout=30_000)
        settle(page, root)
        keys.reach(target("slot-"))
    assert keys.focused()["ring"] != "none", "no focus ring on a board target"
    keys.press("Enter")
    wait_moved(page, root, before)
    kept_on_the_board(keys)


def kept_on_the_board(keys: Keys) -> None:
    """After a move or the bots' turns the focus is on the board (a target, or the picture while
    no target is left): never dropped to the top of the page."""
    now = keys.focused()
    assert now["target"] or "dg-board-svg" in now["cls"], now


def step_the_bots(page, keys: Keys) -> None:
    """Learn: the bots' turns, stepped with the end-of-round button (to the student's next
    move, the end of the round or of the game). The one place to change when the end of a
    round gets another step."""
    before = board(page, ".dg-stepper")
    keys.reach(lambda a: "dg-to-round" in a["cls"])
    keys.press("Enter")
    wait_moved(page, ".dg-stepper", before)
    if board(page, ".dg-stepper")["human"]:  # the button is disabled now: the focus went to the board
        kept_on_the_board(keys)


def step_through_the_resolution(page, keys: Keys, root: str) -> None:
    """A round ended: its resolution is on the board (issue 24). Step on with "Next round ▶"
    (Enter) until the next round is dealt (or the game's end is shown)."""
    rnd = board(page, root)["resolving"]
    keys.reach(lambda a: "dg-next-round" in a["cls"])
    keys.press("Enter")
    page.wait_for_function("([root, r]) => { const b = document.querySelector(root + ' .dg-board');"
                           " return b && b.dataset.resolving !== r; }", arg=[root, rnd], timeout=60_000)
    settle(page, root)


def board_words(page, root: str) -> list[str]:
    return page.eval_on_selector_all(f"{root} .dg-board-text li", "items => items.map(i => i.textContent)")


def gold_said(words: list[str], lang: str) -> dict[int, int]:
    pattern = r"Seat (\d) · \w+(?: \(you\))?: \$(-?\d+)" if lang == "en" else r"座位 (\d) · \w+(?:（你）)?：\$(-?\d+)"
    return {int(m.group(1)) - 1: int(m.group(2)) for w in words if (m := re.match(pattern, w))}


def check_replay(page, keys: Keys) -> None:
    """After round 1: *Replay the narration* shows every step again and the live region says
    the story, title first."""
    keys.reach(lambda a: "dg-story-replay-button" in a["cls"])
    keys.press(" ")
    page.wait_for_function("() => (document.querySelector('.dg-live').textContent || '').startsWith("
                           "'How round 1 resolved:')", timeout=30_000)
    settle(page, ".dg-stepper")
    steps = page.eval_on_selector_all(".dg-stepper .dg-story-steps li", "items => items.map(i => i.textContent)")
    said = page.locator(".dg-live").text_content()
    assert len(steps) > 1 and said == " ".join(["How round 1 resolved:", *steps]), (said, steps)


def check_board_words_after_a_move(page, keys: Keys) -> None:
    """The board in words after the student's first placement: the new occupant with seat 1,
    the engine's gold for every seat, linked to the picture as its description."""
    words = board_words(page, ".dg-stepper")
    assert any(re.search(r"seat 1 · Ann, strength \d", w) for w in words[3:]), words
    drawn = page.eval_on_selector_all(".dg-stepper .dg-board svg .dg-player",
                                      "rows => rows.map(r => [Number(r.dataset.seat), Number(r.dataset.gold)])")
    assert gold_said(words, "en") == dict(drawn)
    link = page.evaluate("""() => { const svg = document.querySelector('.dg-stepper svg.dg-board-svg');
        const id = svg.getAttribute('aria-describedby'); const el = id && document.getElementById(id);
        const region = el && el.closest('[role=region]');
        return [id, region ? region.getAttribute('role') : null, region ? region.getAttribute('aria-label') : null]; }""")
    assert link[0] and link[1:] == ["region", "The board in words"], link
    page.evaluate("document.querySelector('.dg-stepper svg.dg-board-svg').focus()")
    described = keys.focused()
    assert described["description"].startswith(words[0]) and words[-1] in described["description"], described


def test_a_whole_game_of_learn_by_keyboard_only(browser, voila_server):
    """Learn, 3 players (the human and two bots), three rounds, to the result."""
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    try:
        page.goto(voila_server.url, timeout=120_000)
        page.wait_for_selector(".dg-dashboard .dg-stepper .dg-board", timeout=120_000)
        settle(page)
        keys = Keys(page)
        page.locator("body").focus()
        checked = set()
        for _ in range(80):
            now = board(page, ".dg-stepper")
            if now["resolving"]:
                step_through_the_resolution(page, keys, ".dg-stepper")
                checked.add("resolution")
                continue
            if now["phase"] == "over":
                break
            if now["human"]:
                play_my_turn(page, keys, ".dg-stepper")
                if now["phase"] == "dispatch" and "words" not in checked:
                    check_board_words_after_a_move(page, keys)
                    checked.add("words")
            else:
                step_the_bots(page, keys)
            if board(page, ".dg-stepper")["round"] >= 2 and "replay" not in checked:
                check_replay(page, keys)
                checked.add("replay")
        assert board(page, ".dg-stepper")["phase"] == "over", "the game did not end by keyboard"
        assert checked == {"words", "replay", "resolution"}
        message = page.locator(".dg-stepper .dg-message").first.inner_text()
        assert message.startswith("The game is over. Winner(s): "), message
        words = board_words(page, ".dg-stepper")
        assert words[1].startswith("The game is over. Winner: ")
        assert page.locator(".dg-stepper .dg-status").first.inner_text().strip() == i18n.phase_name("over", "en")
        assert keys.nameless == [], keys.nameless[:5]
        assert keys.pointer_events() == 0
        print(f"Learn by keyboard: {keys.presses} key presses")
    finally:
        context.close()


def start_play_with_three_players_in_zh(page, keys: Keys) -> None:
    """繁體中文 by the language toggle, the Play tab by the arrow keys, the set-up fold opened,
    3 players chosen with an arrow key, *Start* pressed: all by keyboard."""
    keys.reach(lambda a: a["name"] == "繁體中文")
    keys.press("Enter")
    page.wait_for_function("document.documentElement.lang === 'zh-Hant'", timeout=30_000)
    settle(page)
    keys.reach(lambda a: a["role"] == "tab")
    for _ in range(6):
        if keys.focused()["name"] == "對戰":
            break
        keys.press("ArrowRight")
    keys.press("Enter")
    page.wait_for_selector(".dg-play-table .dg-board", timeout=120_000)
    settle(page, ".dg-play-table")
    keys.reach(lambda a: a["name"] == "遊戲設定" and a["role"] == "button")
    keys.press("Enter")
    settle(page, ".dg-play-table")
    assert keys.focused()["name"] == "遊戲設定"
    keys.reach(lambda a: "dg-players" in a["box"] and a["tag"] == "SELECT")
    keys.press("ArrowUp")  # 4 → 3 players
    settle(page, ".dg-play-table")
    assert page.locator(".dg-play-table .dg-players select").first.input_value() in ("0", "3")
    keys.reach(lambda a: "dg-start-game" in a["cls"])
    before = board(page, ".dg-play-table")
    keys.press(" ")
    page.wait_for_function("(a) => document.querySelectorAll('.dg-play-table .dg-board svg .dg-player').length === 3",
                           arg=before["actions"], timeout=60_000)
    settle(page, ".dg-play-table")


def wait_for_my_turn(page, root: str = ".dg-play-table") -> dict:
    """Play: the bots answer by themselves, one by one; until the board is the student's, a
    round's resolution is shown (issue 24) or the game is over."""
    page.wait_for_function("(root) => { const b = document.querySelector(root + ' .dg-board');"
                           " const s = document.querySelector(root + ' .dg-status .dg-to-move');"
                           " return b && (b.dataset.phase === 'over' || b.dataset.resolving"
                           " || (b.dataset.locked === '0' && s && s.dataset.human === '1')); }",
                           arg=root, timeout=90_000)
    settle(page, root)
    return board(page, root)


def test_a_whole_game_of_play_by_keyboard_only_in_chinese(browser, voila_server):
    """Play, in 繁體中文, 3 players (the human and two bots), to the result table."""
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    try:
        page.goto(voila_server.url, timeout=120_000)
        page.wait_for_selector(".dg-dashboard .dg-stepper .dg-board", timeout=120_000)
        settle(page)
        keys = Keys(page)
        page.locator("body").focus()
        start_play_with_three_players_in_zh(page, keys)
        moves = 0
        resolutions = 0
        for _ in range(60):
            now = wait_for_my_turn(page)
            if now["resolving"]:
                step_through_the_resolution(page, keys, ".dg-play-table")
                resolutions += 1
                continue
            if now["phase"] == "over":
                break
            play_my_turn(page, keys, ".dg-play-table")
            moves += 1
            if moves == 2:  # the first placement, in the board in words (in 繁體中文)
                words = board_words(page, ".dg-play-table")
                assert any(re.search(r"座位 1 · Ann，力量 \d", w) for w in words[3:]), words
        assert board(page, ".dg-play-table")["phase"] == "over", "the game did not end by keyboard"
        assert moves >= 1 + 3 * 2  # the secret exhaust choice and two placements a round
        assert resolutions >= 2  # rounds 1 and 2 were shown resolving before the next deal
        rows = page.eval_on_selector_all(".dg-play-table .dg-result tr.dg-final",
                                         "rows => rows.map(r => [Number(r.dataset.seat), r.cells[2].textContent])")
        assert len(rows) == 3
        words = board_words(page, ".dg-play-table")
        assert {seat: int(gold.strip("$")) for seat, gold in rows} == gold_said(words, "zh")
        assert words[1].startswith("遊戲結束。勝利：")
        assert page.locator(".dg-play-table .dg-result h4").first.inner_text() == i18n.t("ui.result", "zh")
        assert keys.nameless == [], keys.nameless[:5]
        assert keys.pointer_events() == 0
        print(f"Play by keyboard: {moves} moves, {keys.presses} key presses")
    finally:
        context.close()


ZH_ALLOWED = {"English", "NPC", "Lv", *DEFAULT_NAMES}  # the players' names are not translated


def walk(page, keys: Keys, limit: int = 400) -> list[dict]:
    """Tab from the page's top round to its first control again (fails if it never comes back:
    a keyboard trap)."""
    page.locator("body").focus()
    keys.press("Tab")
    first = keys.focused()
    stops = [first]
    for _ in range(limit):
        keys.press("Tab")
        now = keys.focused()
        if now["tag"] != "BODY" and now["name"] == first["name"] and now["cls"] == first["cls"]:
            return stops
        stops.append(now)
    raise AssertionError("Tab never came back to the first control: a keyboard trap")


def open_folds(page, keys: Keys, root: str) -> None:
    for head in page.locator(f"{root} .jupyter-widget-Collapse-header").all():
        if head.is_visible() and head.get_attribute("aria-expanded") == "false":
            head.focus()
            keys.press("Enter")
            settle(page, root)


def test_every_control_has_a_name_in_both_languages_and_no_trap(browser, voila_server):
    """Learn and Play with every fold open (opened with Enter), in English and 繁體中文: each Tab
    stop has Chromium's computed accessible name; in 繁體中文 no English word is left in a name
    except the players' names and the language toggle's "English"."""
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    try:
        page.goto(voila_server.url, timeout=120_000)
        page.wait_for_selector(".dg-dashboard .dg-stepper .dg-board", timeout=120_000)
        settle(page)
        keys = Keys(page)
        seen = {}
        for lang, tabs in (("en", ("Learn", "Play")), ("zh", ("學習", "對戰"))):
            if lang == "zh":
                page.locator(".dg-dash-header .dg-lang-toggle button", has_text="繁體中文").first.focus()
                keys.press("Enter")
                page.wait_for_function("document.documentElement.lang === 'zh-Hant'", timeout=30_000)
                settle(page)
            for tab, root in zip(tabs, (".dg-stepper", ".dg-play-table")):
                page.locator(".dg-tabs > .lm-TabBar .lm-TabBar-tab", has_text=tab).first.focus()
                keys.press("Enter")
                page.wait_for_selector(f"{root} .dg-board", timeout=120_000)
                settle(page)
                open_folds(page, keys, root)
                stops = walk(page, keys)
                seen[(lang, tab)] = len(stops)
                assert keys.nameless == [], (lang, tab, keys.nameless[:5])
                assert all(s["ring"] != "none" for s in stops if s["tag"] != "BODY"), \
                    [s for s in stops if s["ring"] == "none" and s["tag"] != "BODY"][:3]
                if lang == "zh":
                    english = {s["name"]: words for s in stops
                               if (words := set(re.findall(r"[A-Za-z]{2,}", s["name"])) - ZH_ALLOWED)}
                    assert english == {}, english
        assert all(n >= 12 for n in seen.values()), seen
        print("Tab stops:", seen)
    finally:
        context.close()
