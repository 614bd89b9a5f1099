"""Print and play (issue 29): what is printed follows from the deck, the lords and the players,
and every card's text, read back from the HTML, is the engine's data (R1.1, R1.2, §7), in
English and Chinese. The browser measures (overflow, alignment, the PDF) are in
tests/browser/test_print_and_play_browser.py."""

from __future__ import annotations

import json
import math
import re
from html.parser import HTMLParser

import pytest

from dungeon_guilds import i18n
from dungeon_guilds.drawing.colours import COLOURS, PATTERNS
from dungeon_guilds.cards import parse_deck_text, reference_deck
from dungeon_guilds.cli import main
from dungeon_guilds.drawing.print_and_play import parse_lords, print_set, variant_name
from dungeon_guilds.drawing.print_and_play.layout import CARD_H, CARD_W, EDGE, PAPER, card_box, crop_marks, grid_origin
from dungeon_guilds.drawing.print_and_play.sheets import CLEANUP, RESOLUTION
from dungeon_guilds.lords import ALL_LORDS, BASE_LORDS, LordError, lord_from_dict
from dungeon_guilds.rule_cards import CARDS, card, lord_card
from dungeon_guilds.state import BUMP_FEES, NPC_BUMP_FEE, SWAP_FEE

LANGS = ("en", "zh")

SMALL_DECK = """name = "tiny dungeon"
[heal_costs]
1 = 1
2 = 1
3 = 2
4 = 2
5 = 4
[levels.1]
defence = [2, 4]
treasure = [1, 3]
[levels.2]
defence = [4, 8]
treasure = [3, 9]
[levels.3]
defence = [6, 11]
treasure = [7, 15]
[[rooms]]
level = 1
defence = 2
treasure = 3
count = 7
[[rooms]]
level = 2
defence = 8
treasure = 9
count = 5
[[rooms]]
level = 3
defence = 11
treasure = 15
count = 4
"""


def workshop_lord():
    return lord_from_dict({"id": "gentle_dragon", "name_en": "Gentle Dragon", "name_zh": "溫柔的龍",
                           "effects": [{"kind": "room", "rooms": [-1], "treasure": 6},
                                       {"kind": "heal", "strengths": [5], "delta": -1}]})


class Cards(HTMLParser):
    """Every card face of the document: its attributes and its ``data-field`` texts, in order;
    the rules sheet's rules (``data-rule``) with their fields."""

    def __init__(self):
        super().__init__()
        self.faces: list[dict] = []
        self.rules: dict[str, dict[str, list[str]]] = {}
        self.sheets: list[dict] = []
        self._stack: list[tuple[str, dict | None]] = []
        self._face: dict | None = None
        self._rule: str | None = None
        self._in_rules = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "section" and a.get("class") == "sheet":
            self.sheets.append(a)
            self._in_rules = a.get("data-side") == "rules"
        if "data-card" in a:
            self._face = {"attrs": a, "fields": {}}
            self.faces.append(self._face)
        if self._in_rules and "data-rule" in a:
            self._rule = a["data-rule"]
            self.rules[self._rule] = {}
        self._stack.append((tag, a.get("data-field")))
        if tag in ("br", "meta", "rect", "path", "circle"):
            self._stack.pop()

    def handle_endtag(self, tag):
        if self._stack:
            self._stack.pop()

    def handle_data(self, data):
        name = next((f for _, f in reversed(self._stack) if f), None)
        if name is None:
            return
        if self._in_rules:
            target = self.rules[self._rule] if self._rule else None
        else:
            target = self._face["fields"] if self._face else None
        if target is not None:
            target.setdefault(name, []).append(data)


def parsed(ps) -> Cards:
    p = Cards()
    p.feed(ps.html())
    return p


def fronts(p: Cards, kind: str) -> list[dict]:
    return [f for f in p.faces if f["attrs"]["data-kind"] == kind and f["attrs"]["data-side"] == "front"]


def backs(p: Cards, kind: str) -> list[dict]:
    return [f for f in p.faces if f["attrs"]["data-kind"] == kind and f["attrs"]["data-side"] == "back"]


def text(face: dict, name: str) -> str:
    return "".join(face["fields"].get(name, []))


# ---------------------------------------------------------------------- counts
@pytest.mark.parametrize("players", [3, 4, 5, 6])
@pytest.mark.parametrize("lords", [BASE_LORDS, ALL_LORDS])
def test_the_numbers_of_cards_and_pages_follow_from_the_deck_lords_and_players(players, lords):
    deck = reference_deck()
    ps = print_set(deck, lords, players=players)
    n = len(deck.rooms) + len(lords) + 5 * players + 1 + players
    assert len(ps.cards) == n
    assert ps.count("room") == len(deck.rooms) and ps.count("lord") == len(lords)
    assert ps.count("adventurer") == 5 * players and ps.count("marker") == 1 and ps.count("aid") == players
    assert ps.sheets == math.ceil(n / 9) and ps.pages == 2 * ps.sheets + 1
    p = parsed(ps)
    assert len(p.sheets) == ps.pages
    assert len(p.faces) == 2 * n  # every card has a front and a back
    # sheet s holds cards 9(s-1)+1 .. 9s on both sides
    assert [s["data-side"] for s in p.sheets] == ["front", "back"] * ps.sheets + ["rules"]


def test_a_deck_file_prints_its_own_cards():
    deck = parse_deck_text(SMALL_DECK)
    ps = print_set(deck, BASE_LORDS + (workshop_lord(),), players=4)
    assert ps.count("room") == 16 and ps.count("lord") == 7
    assert len(ps.cards) == 16 + 7 + 20 + 1 + 4


# ---------------------------------------------------------------------- the text is the engine's
@pytest.mark.parametrize("lang", LANGS)
def test_room_cards_print_the_decks_defence_treasure_and_ranges(lang):
    deck = parse_deck_text(SMALL_DECK)
    p = parsed(print_set(deck, ALL_LORDS, players=6, lang=lang))
    rooms = sorted(deck.rooms, key=lambda c: (c.level, c.defence, c.treasure))
    got_front = [(int(f["attrs"]["data-level"]), int(text(f, "defence")), int(text(f, "treasure")))
                 for f in fronts(p, "room")]
    assert got_front == [(c.level, c.defence, c.treasure) for c in rooms]
    for f, c in zip(backs(p, "room"), rooms):  # the back: the level's ranges (R1.2) and lock (R4.3)
        info = deck.levels[c.level]
        assert text(f, "level") == f"Lv{c.level}"
        assert text(f, "defence-range") == f"{info.defence[0]}–{info.defence[1]}"
        assert text(f, "treasure-range") == f"${info.treasure[0]}–${info.treasure[1]}"
        assert str(info.lock_threshold) in text(f, "lock")
        assert "defence" not in f["fields"] and "treasure" not in f["fields"]  # the back hides the front


@pytest.mark.parametrize("lang", LANGS)
def test_lord_cards_print_names_in_both_languages_the_effect_and_the_rulings(lang):
    lords = ALL_LORDS + (workshop_lord(),)
    p = parsed(print_set(None, lords, players=6, lang=lang))
    faces = fronts(p, "lord")
    assert [f["attrs"]["data-lord"] for f in faces] == [x.id for x in lords]
    other = "en" if lang == "zh" else "zh"
    for f, lord in zip(faces, lords):
        lc = lord_card(lord, lang)
        assert text(f, "lord-name") == i18n.lord_name(lord, lang)
        assert text(f, "lord-name-other") == i18n.lord_name(lord, other)
        # the lord's own words (the rulebook's); a lord with none: its effects in words
        sep = "；" if lang == "zh" else "; "
        assert text(f, "lord-effect") == (i18n.lord_text(lord, lang) or sep.join(lc.numbers)) != ""
        assert f["fields"].get("lord-ruling", []) == [t for _, t in lc.rulings]
    assert {x.id for x in ALL_LORDS} <= {f["attrs"]["data-lord"] for f in faces}
    assert all(not b["fields"].get("lord-name") for b in backs(p, "lord"))  # one back for all


@pytest.mark.parametrize("lang", LANGS)
def test_adventurers_five_per_seat_with_the_decks_heal_costs(lang):
    deck = parse_deck_text(SMALL_DECK)
    p = parsed(print_set(deck, ALL_LORDS, players=5, lang=lang))
    faces = fronts(p, "adventurer")
    got = [(int(f["attrs"]["data-seat"]), int(text(f, "strength")), int(text(f, "heal"))) for f in faces]
    assert got == [(seat, s, deck.heal_cost(s)) for seat in range(1, 6) for s in range(1, 6)]
    for f in faces:
        assert text(f, "seat") == i18n.t("pnp.seat", lang, seat=f["attrs"]["data-seat"])
    for b in backs(p, "adventurer"):  # the exhausted side shows the seat, never the strength (R2.4)
        assert "strength" not in b["fields"] and "heal" not in b["fields"] and text(b, "seat")


def test_each_seat_has_its_own_colour_and_pattern():
    """Colour is never the only cue: each seat's band has its own pattern, and its number."""
    html = print_set(players=6).html()
    bands = re.findall(r'data-seat="(\d)" data-strength="\d"[^>]*>.*?data-pattern="(\w+)"><rect[^>]*fill="(#\w+)"', html)
    assert len(bands) == 30
    seen = {(int(seat), pattern, colour) for seat, pattern, colour in bands}
    assert seen == {(seat + 1, PATTERNS[seat], COLOURS[seat]) for seat in range(6)}
    assert len(set(PATTERNS)) == len(set(COLOURS)) == 6


@pytest.mark.parametrize("lang", LANGS)
def test_the_player_aid_prints_the_engines_costs_and_the_rule_lines(lang):
    deck = parse_deck_text(SMALL_DECK)
    p = parsed(print_set(deck, ALL_LORDS, players=4, lang=lang))
    aids = fronts(p, "aid")
    assert len(aids) == 4
    f = aids[0]
    want = [i18n.t("pnp.aid_bump_cost_them" if them else "pnp.aid_bump_cost", lang, level=lv, bank=bank, them=them)
            for lv, (bank, them) in sorted(BUMP_FEES.items())]
    assert f["fields"]["bump-cost"] == want
    assert text(f, "swap-cost") == i18n.t("pnp.aid_swap_cost", lang, fee=SWAP_FEE)
    assert text(f, "npc-cost") == i18n.t("pnp.aid_npc", lang, fee=NPC_BUMP_FEE)
    assert "1-2-3-4-4-3-2-1-1" in text(f, "snake")
    for lv in (1, 2, 3):
        assert f"Lv{lv} {deck.levels[lv].lock_threshold}" in text(f, "lock-thresholds")
    back = backs(p, "aid")[0]
    assert back["fields"]["rule-line"] == [card(r).line(lang) for r in RESOLUTION + CLEANUP]
    colon = "：" if lang == "zh" else ": "
    assert all(f"{s}{colon}${deck.heal_cost(s)}" in text(back, "heal-costs") for s in range(1, 6))
    # issue 53: the snake for every player count, whatever the seats printed; the skip (R4.2)
    snakes = f["fields"]["snake"]
    assert [s.rstrip(" …") for s in snakes] == ["1-2-3-3-2-1-1", "1-2-3-4-4-3-2-1-1", "1-2-3-4-5-5-4-3-2-1-1",
                                                "1-2-3-4-5-6-6-5-4-3-2-1-1"]
    assert text(f, "skip") == i18n.t("pnp.kit.aid_skip", lang)
    # join_list: 、 between items in 繁體中文 (issue 53, item 3)
    sep = "、" if lang == "zh" else ", "
    assert sep.join(f"Lv{lv} {deck.levels[lv].lock_threshold}" for lv in (1, 2, 3)) in text(f, "lock-thresholds")


@pytest.mark.parametrize("lang", LANGS)
def test_the_rules_sheet_has_every_rule_with_its_number_line_and_ruling(lang):
    p = parsed(print_set(lang=lang))
    assert list(p.rules) == [c.id for c in CARDS]
    for c in CARDS:
        fields = p.rules[c.id]
        assert "".join(fields["rule-line"]) == c.line(lang)
        assert "".join(fields.get("rule-ruling", [])) == c.ruling_text(lang)


@pytest.mark.parametrize("lang", LANGS)
def test_the_variants_name_is_on_every_card(lang):
    deck = parse_deck_text(SMALL_DECK)
    lords = BASE_LORDS + (workshop_lord(),)
    ps = print_set(deck, lords, players=4, lang=lang)
    assert "tiny dungeon" in ps.variant and i18n.lord_name(workshop_lord(), lang) in ps.variant
    p = parsed(ps)
    assert all(text(f, "variant") == ps.variant for f in p.faces)
    assert variant_name(reference_deck(), BASE_LORDS, lang) == print_set(lang=lang).variant
    assert print_set(variant="Class 7B", lang=lang).variant == "Class 7B"


# ---------------------------------------------------------------------- geometry
@pytest.mark.parametrize("paper", sorted(PAPER))
def test_each_back_is_the_mirror_of_its_front_across_the_page(paper):
    width, height = PAPER[paper]
    x0, y0 = grid_origin(paper)
    assert x0 == pytest.approx(width - x0 - 3 * CARD_W)  # centred: the mirror maps the grid on itself
    assert min(x0, y0) >= 7  # room for crop marks (5 mm) in the margin
    for i in range(9):
        fx, fy = card_box(i, paper)
        bx, by = card_box(i, paper, back=True)
        assert bx == pytest.approx(width - fx - CARD_W) and by == fy


@pytest.mark.parametrize("paper", sorted(PAPER))
def test_crop_marks_sit_in_the_margin_at_every_cut_line(paper):
    width, height = PAPER[paper]
    x0, y0 = grid_origin(paper)
    path = re.search(r'd="([^"]+)"', crop_marks(paper)).group(1)
    segments = [tuple(map(float, re.findall(r"[\d.]+", seg))) for seg in path.split("M")[1:]]
    assert len(segments) == 4 * 4  # 4 cut lines each way, a mark at both ends
    cuts_x = {round(x0 + c * CARD_W, 2) for c in range(4)}
    cuts_y = {round(y0 + r * CARD_H, 2) for r in range(4)}
    for a, b, c, d in segments:
        assert min(a, c) >= EDGE - 1e-6 and max(a, c) <= width - EDGE + 1e-6
        assert min(b, d) >= EDGE - 1e-6 and max(b, d) <= height - EDGE + 1e-6
        inside_x = x0 < min(a, c) < x0 + 3 * CARD_W
        inside_y = y0 < min(b, d) < y0 + 3 * CARD_H
        assert not (inside_x and inside_y), "a mark over a card"
        assert (a == c and round(a, 2) in cuts_x) or (b == d and round(b, 2) in cuts_y)
        assert max(abs(c - a), abs(d - b)) >= 3  # long enough to see


# ---------------------------------------------------------------------- refusals, command line
def test_bad_options_are_refused_with_a_sentence():
    with pytest.raises(ValueError, match="paper: expected one of a4, letter, got 'a3'"):
        print_set(paper="a3")
    with pytest.raises(ValueError, match="players: expected 3 to 6"):
        print_set(players=7)
    with pytest.raises(ValueError, match=r"draws 6 lords \(R2.2\); only 2 given"):
        print_set(lords=BASE_LORDS[:2])
    with pytest.raises(LordError, match="unknown lord id 'nope'"):
        parse_lords("beholder,nope")


def test_lords_from_a_json_file_or_a_game_record(tmp_path):
    path = tmp_path / "lords.json"
    path.write_text(json.dumps({"lords": ["beholder", workshop_lord().to_dict(), "guardian"]}), "utf-8")
    lords = parse_lords(str(path))
    assert [x.id for x in lords] == ["beholder", "gentle_dragon", "guardian"]
    assert parse_lords("all") == ALL_LORDS and parse_lords(" base ") == BASE_LORDS
    bad = tmp_path / "bad.json"
    bad.write_text('{"lords": [{"id": "x", "effects": [{"kind": "room", "rooms": [1], "treasure": "lots"}]}]}')
    with pytest.raises(ValueError, match="lords\\[0\\]"):
        parse_lords(str(bad))


def test_cli_print_and_play_writes_the_document(tmp_path, capsys):
    deck = tmp_path / "tiny.toml"
    deck.write_text(SMALL_DECK, "utf-8")
    out = tmp_path / "cards.html"
    assert main(["print-and-play", "--deck", str(deck), "--lords", "all", "--lang", "zh", "--paper", "letter",
                 "--players", "4", "--out", str(out)]) == 0
    said = capsys.readouterr().out
    ps = print_set(parse_deck_text(SMALL_DECK), ALL_LORDS, players=4, lang="zh", paper="letter")
    assert out.read_text("utf-8") == ps.html()
    assert f"{len(ps.cards)} 張卡" in said and f"共 {ps.pages} 頁 美式信紙" in said  # in the print's language


@pytest.mark.parametrize("lang", LANGS)
def test_cli_says_a_rules_sheet_alone_is_one_page_one_sided(tmp_path, capsys, lang):
    """Issue 53: "--cards rules" said "0 cards … on 0 sheets, fronts and backs, and a rules
    sheet: 1 a4 pages … print it double-sided"."""
    out = tmp_path / "rules.html"
    assert main(["print-and-play", "--cards", "rules", "--lang", lang, "--out", str(out)]) == 0
    said = capsys.readouterr().out.strip()
    assert said == i18n.t("pnp.kit.summary_rules_only", lang, out=str(out), paper="A4")
    assert "0 cards" not in said and "0 張" not in said and "double" not in said and "雙面" not in said
    assert print_set(lang=lang, cards="rules").pages == 1


@pytest.mark.parametrize("argv, message", [
    (["--deck", "/no/such/deck.toml"], "cannot read the deck file"),
    (["--lords", "nope"], "unknown lord id 'nope'"),
    (["--lords", "beholder"], "only 1 given"),
    (["--paper", "a3"], "invalid choice: 'a3'"),
])
def test_cli_print_and_play_refuses_bad_input_in_one_line(tmp_path, capsys, argv, message):
    out = tmp_path / "cards.html"
    assert main(["print-and-play", "--out", str(out), *argv]) == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert not out.exists()


def test_a_lord_too_busy_for_its_card_prints_its_rules_by_title():
    busy = lord_from_dict({"id": "busy", "name_en": "Busy", "effects": [
        {"kind": "room", "rooms": [1, 2], "defence": 2, "treasure": -1}, {"kind": "heal", "strengths": [3], "delta": 1},
        {"kind": "ban", "strengths": [1]}, {"kind": "flip", "exhaust": [1], "activate": [5]},
        {"kind": "bonus", "amount": 2}]})
    for lang in LANGS:
        lc = lord_card(busy, lang)
        f = fronts(parsed(print_set(None, BASE_LORDS + (busy,), lang=lang)), "lord")[-1]
        assert f["fields"]["lord-ruling"] == [card(rid).title(lang) for rid, _ in lc.rulings]
        assert len(lc.rulings) >= 6


# ---------------------------------------------------------------------- issue 40: print what changed
def _one_room_changed():
    ref = reference_deck()
    rooms = list(ref.rooms)
    i = next(k for k, r in enumerate(rooms) if r.level == 2)
    old = rooms[i]
    rooms[i] = type(old)(old.level, old.defence, old.treasure + 1)  # inside the level's range
    assert ref.levels[2].treasure[0] <= old.treasure + 1 <= ref.levels[2].treasure[1]
    return ref.with_values(rooms=rooms), rooms[i]


@pytest.mark.parametrize("lang", LANGS)
def test_only_the_cards_that_differ_from_the_reference_are_printed(lang):
    deck, changed_room = _one_room_changed()
    ps = print_set(deck, BASE_LORDS, players=4, lang=lang, cards="changed")
    assert [c.kind for c in ps.cards] == ["room"] and not ps.rules and ps.pages == 2
    assert f'data-field="treasure">{changed_room.treasure}<' in ps.cards[0].front.html
    full = print_set(deck, BASE_LORDS, players=4, lang=lang)
    assert len(full.cards) > 40 and full.pages > 2 * ps.pages
    with pytest.raises(ValueError):  # nothing differs: said, not an empty document
        print_set(reference_deck(), BASE_LORDS, players=4, lang=lang, cards="changed")
    custom = lord_from_dict({**BASE_LORDS[0].to_dict(), "name_en": "Calm Caveman"}, "test")
    lords = (custom, *BASE_LORDS[1:])
    picked = print_set(deck, lords, players=4, lang=lang, cards="changed,rules")
    assert sorted(c.kind for c in picked.cards) == ["lord", "room"] and picked.rules


def test_chosen_cards_by_kind_level_and_lord():
    ps = print_set(None, BASE_LORDS, players=3, cards="level1,red_dragon,marker")
    levels = {re.search(r'data-level="(\d)"', c.front.attrs).group(1) for c in ps.cards if c.kind == "room"}
    assert levels == {"1"} and [c.kind for c in ps.cards].count("lord") == 1 and ps.count("marker") == 1
    with pytest.raises(ValueError, match="'dragons' is not one of"):
        print_set(None, BASE_LORDS, players=3, cards="dragons")


def test_cli_prints_the_changed_cards_and_refuses_a_pdf_with_the_html_route(tmp_path, capsys):
    deck, _ = _one_room_changed()
    path = tmp_path / "mine.toml"
    path.write_text(deck.to_toml(), "utf-8")
    out = tmp_path / "changed.html"
    assert main(["print-and-play", "--deck", str(path), "--cards", "changed", "--out", str(out)]) == 0
    assert "1 cards (1 rooms" in capsys.readouterr().out and out.read_text("utf-8").count('class="card') >= 1
    pdf = tmp_path / "cards.pdf"
    assert main(["print-and-play", "--out", str(pdf)]) == 2
    err = capsys.readouterr().err
    assert "not .pdf" in err and "--out cards.html" in err and "Save as PDF" in err and not pdf.exists()


@pytest.mark.parametrize("lang", LANGS)
def test_the_footers_and_the_lord_counts_match_what_is_printed(lang):
    """Issue 53: a print of the 6 base lords says so on every foot, beside R1.3 (the 5 promo
    lords optional, R7.4) and in the deck box; a print of all 11 says 6 base + 5 promo; the
    rules sheet names no file."""
    for lords, part, here, box in ((BASE_LORDS, "lords_base", "lords_here_base", "deck_lords_base"),
                                   (ALL_LORDS, "lords_all", "lords_here_all", "deck_lords_all")):
        ps = print_set(None, lords, players=3, lang=lang)
        p = parsed(ps)
        assert ps.count("lord") == len(lords)
        assert all(text(f, "variant") == ps.variant for f in p.faces)
        assert i18n.t(f"pnp.{part}", lang) in ps.variant
        promo = sum(x.promo for x in lords)
        counts = {"n": len(lords), "base": len(lords) - promo, "promo": promo if promo else 5}
        assert "".join(p.rules["R1.3"]["lords-here"]) == i18n.t(f"pnp.kit.{here}", lang, **counts)
        html = ps.html()
        assert i18n.t(f"pnp.kit.{box}", lang, n=len(lords), base=len(lords) - promo, promo=promo) in html
        assert "docs/" not in html and "rules.md" not in html
