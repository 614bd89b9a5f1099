"""A worksheet as a printable HTML page (A4, print CSS, no asset from any host), in English or
繁體中文; with ``key=True`` the answer key: the same page with the engine's answers filled in.

    >>> from dungeon_guilds.teaching.worksheet_html import worksheet_page
    >>> html = worksheet_page("learn", seed=7, lang="zh", key=True)

The words are in ``strings/<lang>/worksheets.toml``; players and rooms are numbered from 1.
"""

from __future__ import annotations

from html import escape
from pathlib import Path
from typing import Any

from .. import i18n
from ..cards import STRENGTHS, reference_deck
from ..siblings import GAMES
from .worksheets import Answer, Question, Worksheet, worksheet

CSS = (Path(__file__).with_name("worksheet.css").read_text(encoding="utf-8"))


def w(key: str, lang: str, **values: Any) -> str:
    """A worksheet string (``worksheet.<key>``), escaped for HTML."""
    return escape(i18n.t(f"worksheet.{key}", lang, **values))


def value_text(value: Any, lang: str) -> str:
    """An answer for people: yes / no, none, or the number."""
    if value is True:
        return w("yes", lang)
    if value is False:
        return w("no", lang)
    if value is None:
        return w("none", lang)
    return escape(str(value))


def blank(answer: Answer, lang: str, key: bool) -> str:
    return f'<span class="blank">{value_text(answer.value, lang) if key else "&nbsp;"}</span>'


def _table(head: list[str], rows: list[list[str]]) -> str:
    th = "".join(f"<th>{h}</th>" for h in head)
    body = "".join("<tr>" + "".join(f"<td>{c}</td>" for c in row) + "</tr>" for row in rows)
    return f"<table><thead><tr>{th}</tr></thead><tbody>{body}</tbody></table>"


# ---------------------------------------------------------------------- positions
def _occupants(st, i: int, lang: str) -> str:
    out = []
    for x in (0, 1):
        owner, strength = st.slot(i, x)
        out.append(w("adventurer", lang, player=owner + 1, strength=strength) if owner >= 0
                   else w("empty_slot", lang))
    return "<br>".join(out)


def rooms_table(st, lang: str, fronts: bool) -> str:
    """The dungeon: each room's level, its back (or front) and its adventurers; during
    dispatch also the lock threshold and whether it is locked."""
    levels = reference_deck().levels
    head = [w("col_room", lang), w("col_level", lang)]
    head += [w("col_front", lang)] if fronts else [w("col_back", lang), w("col_locks_at", lang), w("col_locked", lang)]
    head.append(w("col_adventurers", lang))
    rows = []
    for i, card in enumerate(st.rooms):
        row = [str(i + 1), str(card.level)]
        if fronts:
            row.append(w("front", lang, defence=card.defence, treasure=card.treasure))
        else:
            info = levels[card.level]
            row += [w("range", lang, low=info.defence[0], high=info.defence[1]) + "; "
                    + w("money_range", lang, low=info.treasure[0], high=info.treasure[1]),
                    str(st.lock_threshold(i)), w("yes", lang) if st.locked[i] else w("no", lang)]
        rows.append(row + [_occupants(st, i, lang)])
    return _table(head, rows)


def players_table(st, lang: str) -> str:
    def strengths(mask: int) -> str:
        return i18n.join_list((s for s in STRENGTHS if mask >> s & 1), lang) or "—"
    rows = [[w("player", lang, player=p + 1), f"${st.gold[p]}", strengths(st.active[p]),
             strengths(st.exhausted[p])] for p in range(st.n)]
    return _table([w("col_player", lang), w("col_gold", lang), w("col_hand", lang), w("col_exhausted", lang)], rows)


def heal_line(lang: str) -> str:
    costs = reference_deck().heal_costs
    items = "; ".join(i18n.t("worksheet.heal_cost_item", lang, strength=s, cost=costs[s]) for s in STRENGTHS)
    return f'<p class="note">{w("heal_costs", lang, costs=items)}</p>'


def lord_line(lord: str, lang: str) -> str:
    return f"<p>{w('lord_line', lang, name=i18n.lord_name(lord, lang), text=i18n.lord_text(lord, lang))}</p>"


# ---------------------------------------------------------------------- questions
def _answer_list(answers, lang: str, key: bool) -> str:
    items = "".join(f"<li>{w('a_' + a.label, lang, **a.params)} {blank(a, lang, key)}</li>" for a in answers)
    return f'<ol class="answers" type="a">{items}</ol>'


def _snake(q: Question, lang: str, key: bool) -> str:
    head = [w("col_turn", lang, turn=a.params["turn"]) for a in q.answers]
    return f"<p>{w('q_snake', lang, **q.params)}</p>" + _table(head, [[blank(a, lang, key) for a in q.answers]])


def _replace(q: Question, lang: str, key: bool) -> str:
    st = q.setup.state()
    prompt = w("q_replace_" + q.params["move"], lang, **q.params)
    return (f"<p>{prompt}</p>{rooms_table(st, lang, fronts=False)}{players_table(st, lang)}"
            + _answer_list(q.answers, lang, key))


def _resolution(q: Question, lang: str, key: bool) -> str:
    st = q.setup.state()
    lord = q.params.get("lord")
    prompt = w("q_resolution_lord" if lord else "q_resolution", lang)
    per_player = {}
    for a in q.answers[1:]:
        per_player.setdefault(a.params["player"], []).append(blank(a, lang, key))
    rows = [[w("player", lang, player=p)] + cells for p, cells in per_player.items()]
    head = [w("col_player", lang)] + [w("a_" + a.label, lang) for a in q.answers[1:4]]
    return (f"<p>{prompt}</p>" + (lord_line(lord, lang) if lord else "") + rooms_table(st, lang, fronts=True)
            + players_table(st, lang) + heal_line(lang) + _answer_list(q.answers[:1], lang, key) + _table(head, rows))


def _lord(q: Question, lang: str, key: bool) -> str:
    info = reference_deck().levels[q.params["level"]]
    prompt = w("q_lord", lang, **q.params, low=info.defence[0], high=info.defence[1],
               lord_name=i18n.lord_name(q.params["lord"], lang), lord_text=i18n.lord_text(q.params["lord"], lang))
    return f"<p>{prompt}</p>" + _answer_list(q.answers, lang, key)


def _siblings(q: Question, lang: str, key: bool) -> str:
    turns = q.params["turns"]
    head = [w("col_game", lang)] + [w("col_turn", lang, turn=k + 1) for k in range(turns)] + [w("col_seat1", lang)]
    rows, row = [], []
    for a in q.answers:
        if not row:
            names = GAMES[a.params["game"]]
            row = [escape(names[1] if lang == "zh" else names[0])]
        row.append(blank(a, lang, key))
        if a.label == "seat1_turns":
            rows.append(row)
            row = []
    return f"<p>{w('q_siblings', lang, **q.params)}</p>" + _table(head, rows)


def _next_start(q: Question, lang: str, key: bool) -> str:
    return f"<p>{w('q_next_start', lang, **q.params)}</p>" + _answer_list(q.answers, lang, key)


RENDER = {"snake": _snake, "replace": _replace, "resolution": _resolution, "lord": _lord,
          "siblings": _siblings, "next_start": _next_start}


def question_html(q: Question, number: int, lang: str, key: bool) -> str:
    return f'<section class="q"><h2>{number}.</h2>{RENDER[q.kind](q, lang, key)}</section>'


HANDOUT = ("unfair", "predict", "change", "verdict", "feel")
HANDOUT_LINES = {"predict": "h_predict_line", "verdict": "h_verdict_line"}


def handout_html(lang: str, key: bool) -> str:
    """Worksheet 2's design handout (issue 40): what a group hands in — the unfair moment, the
    starting value the Challenges tab shows and the prediction, the change, the Check's verdict
    with its interval, the players' feelings; the answer key says what a good answer is."""
    parts = [f'<section class="handout"><h2>{w("h_title", lang)}</h2><p class="note">{w("h_intro", lang)}</p>'
             f'<p>{w("h_group", lang)}</p>']
    for item in HANDOUT:
        line = f'<p class="fill">{w(HANDOUT_LINES[item], lang)}</p>' if item in HANDOUT_LINES else ""
        answer = (f'<p class="good">{w(f"h_key_{item}", lang)}</p>' if key else '<div class="box"></div>')
        parts.append(f'<div class="h-item"><p><b>{w(f"h_{item}", lang)}</b></p>{line}{answer}</div>')
    return "".join(parts) + "</section>"


def worksheet_html(ws: Worksheet, lang: str = "en", key: bool = False) -> str:
    """The whole page of worksheet ``ws`` (a standalone HTML document)."""
    title = w(f"title_{ws.lesson}", lang) + (f" — {w('key_title', lang)}" if key else "")
    effects = any(q.setup is not None and q.setup.effects for q in ws.questions)
    head = (f'<h1>{title}</h1><p>{w("name_line", lang)}</p>' if not key else
            f'<h1>{title}</h1><p class="note">{w("key_note", lang)}</p>')
    head += (f'<p class="meta">{w("version", lang, seed=ws.seed)} '
             f'{w("rules_used", lang, effects=w("effects_on" if effects else "effects_off", lang))}</p>')
    body = "".join(question_html(q, k + 1, lang, key) for k, q in enumerate(ws.questions))
    if ws.lesson == "design":  # the group's design handout first, the engine's questions after
        body = handout_html(lang, key) + f'<h2 class="questions">{w("h_questions", lang)}</h2>' + body
    html_lang = "zh-Hant" if lang == "zh" else lang
    return (f'<!DOCTYPE html>\n<html lang="{html_lang}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{title}</title><style>{CSS}</style></head>"
            f'<body class="{"key" if key else "sheet"}">{head}{body}</body></html>\n')


def worksheet_page(lesson: str, seed: int = 1, lang: str = "en", key: bool = False) -> str:
    """:func:`worksheet_html` of ``worksheet(lesson, seed)``."""
    return worksheet_html(worksheet(lesson, seed), lang, key)


def filename(lesson: str, seed: int, lang: str, key: bool) -> str:
    return f"dungeon-guilds-worksheet-{lesson}-{seed}-{lang}{'-key' if key else ''}.html"


__all__ = ["CSS", "filename", "handout_html", "question_html", "rooms_table", "worksheet_html", "worksheet_page"]
