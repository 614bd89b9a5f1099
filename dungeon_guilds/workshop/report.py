"""The workshop report: charts of an A/B experiment, and its HTML and CSV files.

* :func:`figures` — plotly figures of an :class:`~dungeon_guilds.workshop.ab.ABResult`: win rate
  per seat, the paired differences with their intervals, final gold per seat, clear rate by
  level;
* :func:`comparison_html` — the side-by-side table as HTML (significant rows marked);
* :func:`report_html` / :func:`export_report` — one self-contained HTML page (settings, the two
  rule sets in words, the verdict, the table, the charts) and CSV files: ``<stem>.csv`` (the
  comparison table, one row per metric) and ``<stem>_games.csv`` (every game and seat of both
  arms, with an ``arm`` column);
* :func:`load_report` / :func:`load_comparison_csv` read them back: the HTML page carries its
  data (settings, both arms with their decks and lords, the comparison) in a JSON block, so a
  report can be checked and its experiment run again.

Everything but reading back is drawn from the comparison's rows
(:attr:`~dungeon_guilds.workshop.ab.ABResult.comparison_rows`) and the runs' columns, with no
pandas: the static site (Pyodide) makes the same report; the CSV files are written by the
standard library's ``csv`` module (``comparison_csv``, ``games_csv``) in the format pandas
reads back.
"""

from __future__ import annotations

import csv
import html
import io
import json
import math
import re
from pathlib import Path
from typing import Any

from .. import i18n
from ..drawing.plotly_config import plotly_config
from .ab import COMPARISON_COLUMNS, ABResult, Arm, fmt_p, fmt_value, precise_text, row_label
from .strings import wt

__all__ = ["comparison_csv", "comparison_html", "export_report", "figures", "games_csv", "load_comparison_csv",
           "load_report", "report_data", "report_html"]

COLOURS = {"A": "#1f77b4", "B": "#ff7f0e"}
DATA_ID = "dg-workshop-data"


# ---------------------------------------------------------------------- figures
def _err(rows, prefix):
    return {"type": "data", "symmetric": False,
            "array": [max(0.0, r[f"{prefix}_high"] - r[prefix]) for r in rows],
            "arrayminus": [max(0.0, r[prefix] - r[f"{prefix}_low"]) for r in rows]}


def _title(lang: str, key: str, note: str | None = None, **values) -> dict:
    """A figure's title, its details on a smaller second line: one line of title and details
    was cut on a phone (issue 40)."""
    text = wt(key, lang, **values)
    if note:
        text += f"<br><span style='font-size:11px'>{wt(note, lang, **values)}</span>"
    return {"text": text}


# the legend under the plot, across: at the right it took a phone's width and sat beside the
# last seat's boxes (issue 40: seat 3's whiskers cut)
LEGEND = {"orientation": "h", "yanchor": "top", "y": -0.22, "x": 0, "xanchor": "left"}


def _metric(result: ABResult, metric: str) -> list[dict]:
    return [r for r in result.comparison_rows if r["metric"] == metric]


def win_rate_figure(result: ABResult, lang: str = "en"):
    import plotly.graph_objects as go

    rows = _metric(result, "win_rate_seat")
    players = int(result.settings["players"])
    fig = go.Figure()
    for key, arm in (("a", result.a), ("b", result.b)):
        fig.add_bar(name=arm.name, x=[str(int(r["group"].replace("seat ", "")) + 1) for r in rows],
                    y=[r[key] for r in rows],
                    error_y=_err(rows, key), marker_color=COLOURS["A" if key == "a" else "B"])
    fig.add_hline(y=1 / players, line_dash="dot", line_color="#666")
    fig.update_layout(barmode="group", title=_title(lang, "fig_win_title", "fig_win_note", fair=f"{100 / players:.0f} %"),
                      xaxis_title=wt("axis_seat", lang), yaxis_title=wt("axis_win", lang), legend=LEGEND,
                      yaxis_tickformat=".0%", height=400, margin={"l": 50, "r": 10, "t": 60, "b": 90})
    return fig


def difference_figure(result: ABResult, lang: str = "en"):
    """A forest plot: every paired difference B − A with its 95 % interval; rates in percentage
    points above, amounts per game below (side by side, their labels overlapped on a phone,
    issue 40); significant ones in red."""
    import plotly.graph_objects as go
    from plotly.subplots import make_subplots

    comp = result.comparison_rows
    rates = [r for r in comp if r["unit"] in ("rate", "index")]
    amounts = [r for r in comp if r["unit"] not in ("rate", "index")]
    sizes = (max(len(rates), 1), max(len(amounts), 1))
    height = 26 * sum(sizes) + 260
    plot = height - 70 - 70  # less the top and bottom margins
    fig = make_subplots(rows=2, cols=1, vertical_spacing=80 / plot,  # room for the axis and the next title
                        row_heights=[n / sum(sizes) for n in sizes],
                        subplot_titles=(wt("fig_diff_rates", lang), wt("fig_diff_amounts", lang)))
    for row, part, scale in ((1, rates, 100.0), (2, amounts, 1.0)):
        labels = [row_label(r, lang) for r in part]
        for sig in (False, True):
            sub = [r for r in part if bool(r["significant"]) == sig]
            if not sub:
                continue
            fig.add_scatter(
                x=[r["diff"] * scale for r in sub], y=[row_label(r, lang) for r in sub], mode="markers",
                marker={"color": "#b02020" if sig else "#1f4e79", "size": 9},
                error_x={"type": "data", "symmetric": False,
                         "array": [max(0.0, (r["diff_high"] - r["diff"]) * scale) for r in sub],
                         "arrayminus": [max(0.0, (r["diff"] - r["diff_low"]) * scale) for r in sub]},
                name=wt("significant_mark" if sig else "not_significant_mark", lang),
                legendgroup=str(sig),
                showlegend=row == 1 or (row == 2 and not any(bool(r["significant"]) == sig for r in rates)),
                row=row, col=1)
        fig.add_vline(x=0, line_color="#888", row=row, col=1)
        fig.update_yaxes(categoryorder="array", categoryarray=labels[::-1], automargin=True, row=row, col=1)
    # the two parts' titles at the left edge: centred over a phone's narrow plot they were cut
    fig.update_annotations(x=0, xanchor="left", xref="paper")
    fig.update_layout(title=_title(lang, "fig_diff_title", "fig_diff_note", a=result.a.name, b=result.b.name),
                      height=height, legend={**LEGEND, "y": -40 / plot},
                      margin={"l": 10, "r": 10, "t": 70, "b": 70})
    return fig


def gold_figure(result: ABResult, lang: str = "en"):
    import plotly.graph_objects as go

    fig = go.Figure()
    for arm, sim, colour in ((result.a, result.sim_a, COLOURS["A"]), (result.b, result.sim_b, COLOURS["B"])):
        fig.add_box(x=[str(int(s) + 1) for s in sim.column("games", "seat")], y=list(sim.column("games", "gold")),
                    name=arm.name, marker_color=colour,
                    boxmean=True)
    fig.update_layout(boxmode="group", title=_title(lang, "fig_gold_title"), legend=LEGEND,
                      xaxis_title=wt("axis_seat", lang), yaxis_title=wt("axis_gold", lang), height=400,
                      margin={"l": 50, "r": 10, "t": 50, "b": 90})
    return fig


def clear_figure(result: ABResult, lang: str = "en"):
    import plotly.graph_objects as go

    rows = _metric(result, "clear_rate_level")
    fig = go.Figure()
    for key, arm in (("a", result.a), ("b", result.b)):
        fig.add_bar(name=arm.name, x=[r["group"] for r in rows], y=[r[key] for r in rows], error_y=_err(rows, key),
                    marker_color=COLOURS["A" if key == "a" else "B"])
    fig.update_layout(barmode="group", title=_title(lang, "fig_clear_title", "fig_clear_note"), legend=LEGEND,
                      xaxis_title=wt("axis_level", lang), yaxis_title=wt("axis_clear", lang),
                      yaxis_tickformat=".0%", yaxis_range=[0, 1.05], height=400,
                      margin={"l": 50, "r": 10, "t": 60, "b": 90})
    return fig


def figures(result: ABResult, lang: str = "en") -> dict[str, Any]:
    """{name: plotly figure}: ``win_rates``, ``differences``, ``gold``, ``clear_rates``."""
    return {"win_rates": win_rate_figure(result, lang), "differences": difference_figure(result, lang),
            "gold": gold_figure(result, lang), "clear_rates": clear_figure(result, lang)}


# ---------------------------------------------------------------------- tables
def comparison_html(result: ABResult, lang: str = "en") -> str:
    """The comparison as an HTML table (class ``dg-ab-table``; significant rows ``dg-sig``)."""
    a, b = html.escape(result.a.name), html.escape(result.b.name)
    head = (f"<tr><th>{html.escape(wt('col_metric', lang))}</th><th>{a}</th><th>{b}</th>"
            f"<th>{html.escape(wt('col_diff', lang, a=result.a.name, b=result.b.name))}</th>"
            f"<th>{wt('col_p', lang)}</th><th>{html.escape(wt('col_p_holm', lang))}</th>"
            f"<th>{html.escape(wt('col_sig', lang))}</th></tr>")
    body = []
    for r in result.comparison_rows:
        u = r["unit"]

        def cell(v, lo, hi):
            if isinstance(v, float) and math.isnan(v):
                return "—"
            return (f"{fmt_value(v, u)} <span class='dg-ci'>[{fmt_value(lo, u)}, {fmt_value(hi, u)}]</span>"
                    if not (isinstance(lo, float) and math.isnan(lo)) else f"{fmt_value(v, u)} {too_few}")
        too_few = f"<span class='dg-too-few'>({html.escape(i18n.t('stats.too_few_games', lang))})</span>"
        diff = (f"{fmt_value(r['diff'], u, True)} <span class='dg-ci'>[{fmt_value(r['diff_low'], u, True)}, "
                f"{fmt_value(r['diff_high'], u, True)}]</span>" if not math.isnan(r["diff_low"]) else too_few)
        sig = bool(r["significant"])
        body.append(
            f"<tr class='dg-ab-row{' dg-sig' if sig else ''}' data-metric='{html.escape(r['metric'])}' "
            f"data-group='{html.escape(str(r['group']))}'><td>{html.escape(row_label(r, lang))}</td>"
            f"<td>{cell(r['a'], r['a_low'], r['a_high'])}</td><td>{cell(r['b'], r['b_low'], r['b_high'])}</td>"
            f"<td>{diff}</td><td>{fmt_p(r['p'])}</td><td>{fmt_p(r['p_holm'])}</td>"
            f"<td>{html.escape(wt('yes' if sig else 'no', lang)) if r.get('enough', True) else '—'}</td></tr>")
    # the table scrolls on its own on a phone: wider than the screen, it widened the whole block
    # and cut the explanations beside it (issue 40)
    return (f"<div class='dg-ab-table-wrap' style='max-width:100%;overflow-x:auto'><table class='dg-ab-table'>"
            f"{head}{''.join(body)}</table></div>" + measures_html(result, lang))


def measures_html(result: ABResult, lang: str = "en") -> str:
    """One sentence per measure of the table: what it counts (class ``dg-ab-measures``)."""
    items = []
    from .. import i18n

    for metric in dict.fromkeys(r["metric"] for r in result.comparison_rows):
        # a label that stands alone ("win rate of" is followed by a bot's name in the table)
        key = f"metric_{metric}_measure" if i18n.has(f"workshop.metric_{metric}_measure", lang) else f"metric_{metric}"
        items.append(f"<li data-metric='{html.escape(metric)}'><b>{html.escape(wt(key, lang))}</b>"
                     f" — {html.escape(wt(f'metric_help_{metric}', lang))}</li>")
    return (f"<details class='dg-ab-measures' open><summary>{html.escape(wt('ab_measures', lang))}</summary>"
            f"<ul>{''.join(items)}</ul><p>{html.escape(wt('ab_measures_note', lang))}</p></details>")


_STYLE = "<style>" + Path(__file__).with_name("report.css").read_text(encoding="utf-8") + "</style>"


def verdict_html(result: ABResult, lang: str = "en") -> str:
    """The verdict in plain words, and the precise terms one click away (``details``)."""
    from ..analysis.verdicts import words

    return ("<div class='dg-verdict'>" + "".join(f"<p>{html.escape(line)}</p>" for line in result.verdict_lines(lang))
            + f"<details class='dg-how-sure'><summary>{html.escape(words('how_sure', lang))}</summary>"
            f"<p>{html.escape(precise_text(result.comparison_rows, lang))}</p></details></div>")


def arms_html(result: ABResult, lang: str = "en") -> str:
    parts = []
    for arm in (result.a, result.b):
        lines = "".join(f"<li>{html.escape(x)}</li>" for x in arm.describe(lang))
        deck = (f"<details><summary>deck.toml</summary><pre>{html.escape(arm.the_deck.to_toml())}</pre></details>")
        parts.append(f"<h3>{html.escape(wt('ab_arm', lang, name=arm.name))}</h3><ul>{lines}</ul>{deck}")
    return "".join(parts)


def settings_text(result: ABResult, lang: str = "en") -> str:
    s = result.settings
    bots = i18n.join_list((f"{seat + 1} · {i18n.t(f'bot.{b}', lang) if i18n.has(f'bot.{b}', lang) else b}"
                           for seat, b in enumerate(s["bots"])), lang)  # seats from 1, bots by name
    return wt("report_settings_text", lang, games=s["games"], players=s["players"], bots=bots,
              seed=s["seed"], rotate=wt("report_rotate", lang) if s.get("rotate") else "")


def report_data(result: ABResult) -> dict[str, Any]:
    """What the HTML page carries as JSON: settings, both arms, the comparison rows."""
    rows = []
    for rec in result.comparison_rows:
        rows.append({k: (None if isinstance(v, float) and math.isnan(v) else
                         (bool(v) if k == "significant" else v)) for k, v in rec.items()})
    settings = {k: v for k, v in result.settings.items() if k != "seconds"}
    return {"format": "dungeon-guilds-workshop-report", "version": 1, "settings": settings,
            "arms": [result.a.to_dict(), result.b.to_dict()], "comparison": rows}


def report_html(result: ABResult, lang: str = "en") -> str:
    """The whole report as one HTML page that opens offline: plotly.js is inlined once, before
    the first chart (about 4.7 MB of the page; nothing is fetched from another host)."""
    figs = figures(result, lang)
    charts = []
    for k, fig in enumerate(figs.values()):
        include = k == 0
        charts.append(fig.to_html(full_html=False, include_plotlyjs=include,
                                  config=plotly_config()))
    data = json.dumps(report_data(result), ensure_ascii=False, default=_json_default).replace("</", "<\\/")
    return (f"<!DOCTYPE html><html lang='{'zh-Hant' if lang == 'zh' else 'en'}'><head><meta charset='utf-8'>"
            f"<title>{html.escape(wt('report_title', lang))}</title>{_STYLE}</head><body>"
            f"<h1>{html.escape(wt('report_title', lang))}</h1>"
            f"<h2>{html.escape(wt('report_settings', lang))}</h2><p>{html.escape(settings_text(result, lang))}</p>"
            f"<h2>{html.escape(wt('report_arms', lang))}</h2>{arms_html(result, lang)}"
            f"<h2>{html.escape(wt('report_verdict', lang))}</h2>{verdict_html(result, lang)}"
            f"<h2>{html.escape(wt('report_table', lang))}</h2>{comparison_html(result, lang)}"
            f"<h2>{html.escape(wt('report_charts', lang))}</h2>{''.join(charts)}"
            f"<p><small>{html.escape(wt('report_footer', lang))}</small></p>"
            f"<script type='application/json' id='{DATA_ID}'>{data}</script></body></html>")


def _json_default(value: Any) -> Any:
    try:
        import numpy as np

        if isinstance(value, np.generic):
            return value.item()
    except ImportError:  # pragma: no cover
        pass
    return str(value)


def _games_columns(result: ABResult) -> tuple[list[str], list[tuple]]:
    """Every game and seat of both arms: the columns (``arm`` first) and the rows."""
    from ..analysis.simulate import GAME_COLUMNS

    rows = [(arm.name, *row) for arm, sim in ((result.a, result.sim_a), (result.b, result.sim_b))
            for row in sim.rows("games")]
    return ["arm", *GAME_COLUMNS], rows


def games_table(result: ABResult):
    """Every game and seat of both arms (``arm`` column first), as one pandas table."""
    import pandas as pd

    columns, rows = _games_columns(result)
    return pd.DataFrame(rows, columns=columns)


def _csv(columns, rows) -> str:
    """CSV text as pandas writes it (``to_csv(index=False)``): NaN and None as empty cells."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(columns)
    for row in rows:
        writer.writerow(["" if v is None or (isinstance(v, float) and math.isnan(v)) else v for v in row])
    return out.getvalue()


def comparison_csv(result: ABResult) -> str:
    """The comparison table as CSV text (one row per metric; :func:`load_comparison_csv`)."""
    return _csv(COMPARISON_COLUMNS, [[r[c] for c in COMPARISON_COLUMNS] for r in result.comparison_rows])


def games_csv(result: ABResult) -> str:
    """Every game and seat of both arms as CSV text (``arm`` column first)."""
    return _csv(*_games_columns(result))


def export_report(result: ABResult, directory: str | Path = ".", stem: str = "workshop_ab",
                  lang: str = "en") -> dict[str, Path]:
    """Write ``<stem>.html`` (the report), ``<stem>.csv`` (the comparison) and
    ``<stem>_games.csv`` (every game and seat of both arms) into ``directory``; return the
    paths by kind (``html``, ``csv``, ``games_csv``)."""
    out = Path(directory)
    out.mkdir(parents=True, exist_ok=True)
    paths = {"html": out / f"{stem}.html", "csv": out / f"{stem}.csv", "games_csv": out / f"{stem}_games.csv"}
    paths["html"].write_text(report_html(result, lang), encoding="utf-8")
    paths["csv"].write_text(comparison_csv(result), encoding="utf-8")
    paths["games_csv"].write_text(games_csv(result), encoding="utf-8")
    return paths


# ---------------------------------------------------------------------- reading back
def load_comparison_csv(path: str | Path):
    """The comparison table from ``<stem>.csv`` (the columns of ``COMPARISON_COLUMNS``)."""
    import pandas as pd

    table = pd.read_csv(path, keep_default_na=True)
    if "enough" not in table.columns:  # a table from before issue 27
        table["enough"] = True
        table["width_independent"] = float("nan")
    missing = [c for c in COMPARISON_COLUMNS if c not in table.columns]
    if missing:
        raise ValueError(f"{path}: not a workshop comparison table (missing {', '.join(missing)})")
    table["group"] = table["group"].fillna("")
    table["significant"] = table["significant"].astype(bool)
    table["enough"] = table["enough"].astype(bool)
    return table[list(COMPARISON_COLUMNS)]


def load_report(path_or_text: str | Path) -> dict[str, Any]:
    """Read a report page back: ``settings`` (dict), ``arms`` (two :class:`Arm`, decks and
    lords rebuilt by the engine's parsers) and ``comparison`` (a DataFrame)."""
    import pandas as pd

    text = str(path_or_text)
    if not text.lstrip().startswith("<"):
        text = Path(path_or_text).read_text(encoding="utf-8")
    m = re.search(rf"<script type='application/json' id='{DATA_ID}'>(.*?)</script>", text, re.S)
    if m is None:
        raise ValueError("not a workshop report: its data block is missing")
    data = json.loads(m.group(1).replace("<\\/", "</"))
    if data.get("format") != "dungeon-guilds-workshop-report":
        raise ValueError(f"not a workshop report (format {data.get('format')!r})")
    comp = pd.DataFrame(data["comparison"], columns=list(COMPARISON_COLUMNS))
    for col in ("a", "a_low", "a_high", "b", "b_low", "b_high", "diff", "diff_low", "diff_high", "p", "p_holm",
                "width_independent"):
        comp[col] = comp[col].astype(float)
    return {"settings": data["settings"], "arms": [Arm.from_dict(x) for x in data["arms"]], "comparison": comp}
