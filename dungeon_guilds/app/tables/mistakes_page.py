"""The class's mistakes on the teacher's page and in its downloads (issue 38, item 6).

:func:`mistakes_html` is the page's panel: how many finished games the judge has reviewed and
how many still wait, then the kinds of decision most often marked "mistake" (the order of
:func:`~dungeon_guilds.analysis.class_mistakes.tally`), each with its counts and its worst
example in words — the table, the round, the seat (numbered from 1) and its name, the move made,
its headline (issue 49: one idea in game words), the move's and the judge's best's win chances
folded under "Details (for the teacher)", and the position as that seat could see it
(:func:`~dungeon_guilds.drawing.board_text.board_lines`, stored by the worker in both languages).
Money is text (:func:`~dungeon_guilds.money_html.dollars_as_text`).

:func:`mistakes_csv` is one row a kind (every cell a visitor's text could start like a formula
is written as text: :func:`~.records.as_text`); :func:`mistakes_json` has the counts, the
groups with both languages' words and every game's stored decisions.
"""

from __future__ import annotations

import csv
import io
import json
from html import escape

from ... import i18n
from ...analysis.class_mistakes import MistakeGroup
from ...analysis.judge_review import percent
from ...money_html import dollars_as_text
from .class_review import ClassReviews
from .records import as_text

CSV_COLUMNS = ("kind", "kind_words", "decisions", "mistakes", "inaccuracies", "mistake_share_percent",
               "win_chance_lost_points", "example_table", "example_round", "example_seat", "example_name",
               "example_mark", "example_move", "example_move_win_percent", "example_best", "example_best_win_percent",
               "example_loss_points", "example_loss_se_points", "example_position", "example_headline")


def t(key: str, lang: str, **values) -> str:
    return i18n.t(f"tables.{key}", lang, **values)


def _points(x: float) -> str:
    return f"{100 * x:.0f}"


def _group_html(g: MistakeGroup, lang: str, n: int) -> str:
    head = (f"<h3>{escape(t('kind_' + g.kind, lang))}</h3><p>"
            + escape(t("mistakes_group", lang, mistakes=g.mistakes, taken=g.taken, share=percent(g.share),
                       inaccuracies=g.inaccuracies, lost=f"{g.lost:.0f}")) + "</p>")
    if g.example is None:
        return f"<li class='mistake-kind'>{head}</li>"
    code, ex = g.example
    words = ex["words"][lang]
    example = t("mistakes_example", lang, table=code, round=ex["round"], seat=ex["seat"], name=ex["name"],
                made=words["made"], win=percent(ex["win"]), best=words["best"], best_win=percent(ex["best_win"]),
                loss=_points(ex["loss"]), loss_se=_points(ex["loss_se"]))
    lines = "".join(f"<li>{escape(line)}</li>" for line in words["position"])
    if words.get("head"):  # issue 49: the example's headline; its numbers folded for the teacher
        where = t("mistakes_where", lang, table=code, round=ex["round"], seat=ex["seat"], name=ex["name"],
                  made=words["made"])
        example_html = (f"<p class='mistake-where'>{escape(where)}</p><p class='mistake-head'><b>{escape(words['head'])}"
                        f"</b></p><details class='mistake-details' id='mistake-details-{n}'><summary>"
                        f"{escape(i18n.t('judge.details', lang))}</summary><p>{escape(example)}</p></details>")
    else:  # a review stored before headlines: its sentence as it was
        example_html = f"<p>{escape(example)}</p>"
    return (f"<li class='mistake-kind'>{head}{example_html}<details id='mistake-position-{n}'>"
            f"<summary>{escape(t('mistakes_position', lang, seat=ex['seat']))}</summary><ul>{lines}</ul></details></li>")


def mistakes_html(reviews: ClassReviews, lang: str, refresh_form: str) -> str:
    """The panel (a labelled section); ``refresh_form``: the page's form that shows it again."""
    c = reviews.counts()
    parts = [f"<h2 id='mistakes-title'>{escape(t('mistakes_title', lang))}</h2>",
             f"<p>{escape(t('mistakes_about', lang))}</p>",
             f"<p class='mistakes-progress' role='status'>{escape(t('mistakes_progress', lang, **c))}</p>"]
    if c["failed"]:
        parts.append(f"<p class='problem'>{escape(t('mistakes_failed', lang, failed=c['failed']))}</p>")
    groups = reviews.summary()
    if not c["reviewed"]:
        parts.append(f"<p>{escape(t('mistakes_not_yet', lang))}</p>")
    elif not any(g.mistakes or g.inaccuracies for g in groups):
        parts.append(f"<p>{escape(t('mistakes_no_mark', lang))}</p>")
    else:
        parts.append("<ol class='mistake-kinds'>" + "".join(_group_html(g, lang, n) for n, g in enumerate(groups))
                     + "</ol>")
    parts.append(refresh_form)
    return dollars_as_text(f"<section class='mistakes' aria-labelledby='mistakes-title'>{''.join(parts)}</section>")


def _row(g: MistakeGroup, lang: str) -> list:
    row = [g.kind, t("kind_" + g.kind, lang), g.taken, g.mistakes, g.inaccuracies, f"{100 * g.share:.1f}", f"{g.lost:.1f}"]
    if g.example is None:
        return row + [""] * (len(CSV_COLUMNS) - len(row))
    code, ex = g.example
    words = ex["words"][lang]
    return row + [code, ex["round"], ex["seat"], ex["name"], ex["mark"], words["made"], f"{100 * ex['win']:.1f}",
                  words["best"], f"{100 * ex['best_win']:.1f}", f"{100 * ex['loss']:.1f}", f"{100 * ex['loss_se']:.1f}",
                  " / ".join(words["position"]), words.get("head", "")]


def mistakes_csv(reviews: ClassReviews, lang: str = "en") -> str:
    """One row a kind of decision, the most mistakes first (cells that start like a formula as text)."""
    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow(CSV_COLUMNS)
    for g in reviews.summary():
        writer.writerow([as_text(x) for x in _row(g, lang)])
    return buf.getvalue()


def mistakes_json(reviews: ClassReviews) -> str:
    """The counts, the groups (examples in both languages) and every reviewed game's decisions."""
    groups = [{"kind": g.kind, "decisions": g.taken, "mistakes": g.mistakes, "inaccuracies": g.inaccuracies,
               "win_chance_lost_points": round(g.lost, 2),
               "example": None if g.example is None else {"table": g.example[0], **g.example[1]}}
              for g in reviews.summary()]
    games = [{k: s[k] for k in ("code", "seats", "budget", "cpu", "decisions")}
             for s in sorted(reviews.done.values(), key=lambda s: (s["created"], s["code"]))]
    return json.dumps({**reviews.counts(), "groups": groups, "games": games}, ensure_ascii=False, indent=1)


__all__ = ["CSV_COLUMNS", "mistakes_csv", "mistakes_html", "mistakes_json"]
