"""The Compare tab: Dungeon Guilds and its sibling games side by side.

``CompareExplorer()`` is an ipywidgets app with four tabs:

1. **Side by side** — pick two games; every fact is shown with its sources as citations a
   student can read (*Dungeon! — rules article, § 2. Encounter, line 48: “…”*), plus their shared mechanisms
   and the Jaccard similarity.
2. **Dungeon! odds** — the exact hero win chance for every monster number (with a magic sword
   bonus), the counter-attack distribution and the expected treasure lost per failed attack.
3. **Fighter score** — the Dungeon Fighter score calculator with its rating tier, and the eye
   tables of the coloured and white dice.
4. **Lords orders** — the order-contention simulation: how often a chosen order finds no slot,
   by position in the order of play, with a plotly chart.

It is an :class:`~dungeon_guilds.widgets.common.App`: it follows the English / 繁體中文 toggle
(its own, or the dashboard's shared :class:`LanguageState` with ``lang_state=``). Every label,
tab title, button, column header and message comes from the ``[compare]`` section of
``dungeon_guilds/strings/<lang>.toml``. The sourced facts (the table values, mechanisms,
counter-attack outcomes) are English data; another language translates them in
``strings/<lang>/compare_facts.toml`` (``compare_fact.<game>.<attribute>``,
``compare_mechanism.<name>``, ``compare_counter.<kind>_<outcome>``). Every source is shown as a
readable citation (game, document, section, line and the quoted words; see
:mod:`dungeon_guilds.widgets.citations`). Names that
come from the data or the kernels (attribute labels, score parts, difficulty, die and policy
names) are shown as they are in English; another language translates them with optional keys
``compare.<kind>_<name>`` (see ``[compare]`` in ``zh.toml``), like lord names.

The widget only calls the rule kernels in ``dungeon_guilds.siblings`` (it never decides a rule).
Every callback catches exceptions and shows a short message in the tab instead of a traceback.
"""

from __future__ import annotations

import html
import logging
import re
from functools import wraps
from pathlib import Path

import ipywidgets as widgets

from .. import i18n
from ..siblings import GAMES, comparison, dungeon, dungeon_fighter, dungeon_lords, graphs
from .citations import citation, citations_html
from .figures import show_figure
from .common import App, set_options
from .inputs import SEED_MAX, checked_int
from .labels import Words, label_all
from .common import EXPECTED_ERRORS, App, note_unexpected, set_options

log = logging.getLogger(__name__)

# The Fighter score inputs' ranges (the box: 6 heroes, 20 white dice, 60 gold, 30 damage tokens);
# a value outside is refused with a message naming the field, never silently clamped.
RANGES = {"survivors": (0, 6), "dead": (0, 6), "white": (0, 20), "gold": (0, 60), "tokens": (0, 30)}
# a chart title longer than this (columns; a CJK character counts two) is drawn on two lines:
# the width a 390-px phone shows whole
TITLE_COLUMNS = 34

_STYLE = "<style>" + Path(__file__).with_name("compare.css").read_text(encoding="utf-8") + "</style>"

#: The kernels' English error messages the user can meet in this widget, and the key that
#: says them in the current language (named groups fill the key's fields). An unmatched
#: message is shown as the kernel words it.
_KERNEL_MESSAGES = (
    (re.compile(r"every dead hero took (?P<count>\d+) damage tokens"), "compare.err_dead_tokens"),
    (re.compile(r"a surviving hero holds at most (?P<count>\d+) damage tokens"), "compare.err_survivor_tokens"),
    (re.compile(r"a party has (?P<low>\d+) to (?P<high>\d+) heroes \(survivors \+ dead\)"), "compare.err_party"),
    (re.compile(r"the box holds only (?P<count>\d+) white dice"), "compare.err_white"),
    (re.compile(r"the box holds only (?P<count>\d+) gold coins"), "compare.err_gold"),
)


class _Refused(ValueError):
    """A refusal of the widget itself, worded by a strings key (so it follows the language)."""

    def __init__(self, key: str, **values):
        super().__init__(i18n.t(key, "en", **values))
        self.key, self.values = key, values


def _error(message: str) -> str:
    return f'<div class="dg-err">{html.escape(message)}</div>'


def _fill(template: str, **values: str) -> str:
    """A strings template as HTML: its text escaped, its fields filled with ``values`` (HTML)."""
    text = html.escape(template)
    try:
        return text.format(**values)
    except (KeyError, IndexError, ValueError):
        return text


def _friendly(status_attr: str, clear: bool = True):
    """Decorate a callback: on an error, show a friendly message in ``self.<status_attr>``
    (never a traceback; written again in the new language when the language changes); an
    unexpected one is also logged with its traceback (re-raised under test, ``note_unexpected``). ``clear``: empty the status first. While the app relabels
    itself (options being replaced), callbacks do nothing: ``refresh`` redraws afterwards."""
    def wrap(method):
        @wraps(method)
        def inner(self, *args, **kwargs):
            if getattr(self, "_relabelling", False):
                return None
            try:
                if clear:
                    self._set_status(status_attr, None)
                return method(self, *args, **kwargs)
            except EXPECTED_ERRORS as exc:  # bad input, a refusal: said in the status line
                log.debug("CompareExplorer: %s", exc)
                self.last_error = exc
                self._set_status(status_attr, exc)
            except Exception as exc:  # noqa: BLE001 - a bug: logged, re-raised under test
                note_unexpected(exc, method.__qualname__)
                self.last_error = exc
                self._set_status(status_attr, exc)
            return None
        return inner
    return wrap


def _table(rows: list[dict], headers: dict[str, str] | None = None) -> str:
    """Plain rows (dicts with the same keys, as :mod:`~dungeon_guilds.siblings.comparison` gives
    them) as an HTML table, every text escaped; ``headers`` renames columns (key -> header)."""
    if not rows:
        return ""
    headers = headers or {}
    columns = list(rows[0])
    head = "".join(f"<th>{html.escape(str(headers.get(c, c)))}</th>" for c in columns)
    body = "".join("<tr>" + "".join(f"<td>{html.escape(str(row[c]))}</td>" for c in columns) + "</tr>"
                   for row in rows)
    return f'<table class="dataframe"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'



def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "_", str(name).lower()).strip("_")


class CompareExplorer(App):
    """Pick two games and compare them; explore the siblings' numbers.

    Sub-widgets: ``cooperation``, ``game_a``, ``game_b``, ``table``, ``compare_status`` (side by side);
    ``sword``, ``hand``, ``odds``, ``odds_status`` (Dungeon!); ``difficulty``, ``boss``,
    ``survivors``, ``dead``, ``white``, ``gold``, ``tokens``, ``eye_die``, ``score``, ``eyes``,
    ``score_status`` (Dungeon Fighter); ``players``, ``policy``, ``years``, ``sim_seed``, ``run``,
    ``lords_table``, ``lords_plot``, ``lords_status`` and ``lords_figure`` (Dungeon Lords);
    ``tabs``; ``language_toggle``, ``message`` and ``lang`` (from :class:`App`)."""

    css_class = "dg-cmp"
    TAB_KEYS = ("compare.tab_side", "compare.tab_odds", "compare.tab_fighter", "compare.tab_lords")
    # every control's words (labels.py): relabel walks them in the language of the moment
    LABELS = {"game_a": "compare.game_a", "game_b": "compare.game_b", "sword": "compare.sword",
              "hand": "compare.hand", "difficulty": "compare.difficulty", "boss": "compare.boss",
              **{name: Words(f"compare.{name}", range=RANGES[name]) for name in RANGES},
              "eye_die": "compare.eye_table", "players": "compare.players", "policy": "compare.policy",
              "years": "compare.years", "sim_seed": Words("compare.seed", range=(0, SEED_MAX)),
              "run": "compare.run"}

    def __init__(self, game_a: str = "dungeon_guilds", game_b: str = "dungeon", *,
                 lords_years: int = 40, seed: int = 0, lang: str = "en", lang_state=None,
                 show_language: bool = True, **kwargs):
        self._relabelling = False
        self._errors: dict[str, BaseException | None] = {}
        self._lords_run: dict | None = None
        super().__init__(lang=lang, lang_state=lang_state, show_language=show_language, **kwargs)

        self.tabs = widgets.Tab(children=[self._side_panel(game_a, game_b), self._odds_panel(),
                                          self._fighter_panel(), self._lords_panel(lords_years, seed)])
        self.children = [widgets.HTML(_STYLE), self.language_toggle, self.message, self.tabs]
        self.relabel()

        self._wire()
        self._on_compare()
        self._on_odds()
        self._on_score()
        self._on_run()

    # --- the four panels ---------------------------------------------------------------------
    def _side_panel(self, game_a: str, game_b: str) -> widgets.VBox:
        """The side-by-side table of two games."""
        self.game_a = widgets.Dropdown(options=self._game_options(), value=game_a)
        self.game_b = widgets.Dropdown(options=self._game_options(), value=game_b)
        self.table = widgets.HTML()
        self.compare_status = widgets.HTML()
        self.cooperation = widgets.HTML()  # all four games: cooperative or competitive
        return widgets.VBox([self.cooperation, widgets.HBox([self.game_a, self.game_b]), self.compare_status,
                             self.table])

    def _odds_panel(self) -> widgets.VBox:
        """Dungeon!'s odds of winning a fight."""
        self.sword = widgets.IntSlider(value=0, min=0, max=4)
        self.hand = widgets.IntSlider(value=3, min=0, max=12)
        self.odds = widgets.HTML()
        self.odds_status = widgets.HTML()
        return widgets.VBox([widgets.HBox([self.sword, self.hand]), self.odds_status, self.odds])

    def _fighter_panel(self) -> widgets.VBox:
        """Dungeon Fighter's score."""
        self.difficulty = widgets.Dropdown(options=self._difficulty_options(), value="normal")
        self.boss = widgets.Checkbox(value=True)
        self.survivors = widgets.IntText(value=4)  # out of RANGES: refused, never clamped
        self.dead = widgets.IntText(value=0)  # out of RANGES: refused, never clamped
        self.white = widgets.IntText(value=2)  # out of RANGES: refused, never clamped
        self.gold = widgets.IntText(value=7)  # out of RANGES: refused, never clamped
        self.tokens = widgets.IntText(value=0)  # out of RANGES: refused, never clamped
        self.eye_die = widgets.ToggleButtons(options=self._die_options(), value="coloured")
        self.score = widgets.HTML()
        self.eyes = widgets.HTML()
        self.score_status = widgets.HTML()
        return widgets.VBox([
            widgets.HBox([self.difficulty, self.boss]),
            widgets.HBox([self.survivors, self.dead]),
            widgets.HBox([self.white, self.gold, self.tokens]),
            self.score_status, self.score, self.eye_die, self.eyes])

    def _lords_panel(self, lords_years: int, seed: int) -> widgets.VBox:
        """Dungeon Lords' turn orders, simulated."""
        self.players = widgets.SelectMultiple(options=[2, 3, 4], value=(2, 3, 4), rows=3)
        self.policy = widgets.Dropdown(options=self._policy_options(), value="random")
        self.years = widgets.IntSlider(value=lords_years, min=5, max=500, step=5)
        self.sim_seed = widgets.IntText(value=seed).add_class("dg-cmp-seed")
        self.run = widgets.Button(button_style="primary")
        self.lords_table = widgets.HTML()
        self.lords_plot = widgets.Output()
        self.lords_status = widgets.HTML()
        self.lords_figure = None
        return widgets.VBox([
            widgets.HBox([self.players, widgets.VBox([self.policy, self.years, self.sim_seed, self.run])]),
            self.lords_status, self.lords_table, self.lords_plot])

    def _wire(self) -> None:
        for w in (self.game_a, self.game_b):
            w.observe(self._on_compare, names="value")
        for w in (self.sword, self.hand):
            w.observe(self._on_odds, names="value")
        for w in (self.difficulty, self.boss, self.survivors, self.dead, self.white, self.gold,
                  self.tokens, self.eye_die):
            w.observe(self._on_score, names="value")
        self.run.on_click(self._on_run)
        for w in (self.players, self.policy, self.years, self.sim_seed):
            w.observe(self._on_lords_settings, names="value")

    # --- words -------------------------------------------------------------------------------
    def _data_word(self, kind: str, name: str, default: str | None = None) -> str:
        """A name from the data or a kernel (English), translated if the language has
        ``compare.<kind>_<name>``."""
        key = f"compare.{kind}_{_slug(name)}"
        if self.lang != i18n.FALLBACK and i18n.has(key, self.lang):
            return i18n.t(key, self.lang)
        return name if default is None else default

    def _fact(self, game: str, attribute: str, english: str) -> str:
        """A fact of the comparison data in the current language (``compare_fact.<game>.<attribute>``
        in the language's strings; the data's English otherwise)."""
        key = f"compare_fact.{game}.{attribute}"
        return i18n.t(key, self.lang) if self.lang != i18n.FALLBACK and i18n.has(key, self.lang) else english

    def _mechanism(self, name: str) -> str:
        key = "compare_mechanism." + re.sub(r"[^A-Za-z0-9]+", "_", name).strip("_")
        return i18n.t(key, self.lang) if self.lang != i18n.FALLBACK and i18n.has(key, self.lang) else name

    def _counter(self, kind: str, outcome: str, english: str | None = None) -> str:
        """A counter-attack outcome or effect of Dungeon! (``compare_counter.<kind>_<outcome>``);
        ``english``: the English shown when the language has none (the outcome's own name if
        not given: an effect used to show its outcome's name in English, issue 24)."""
        english = outcome if english is None else english
        m = re.match(r"(The monster kills you|Badly wounded|Wounded|Scared|The monster misses)", outcome)
        slugs = {"The monster kills you": "killed", "Badly wounded": "badly_wounded", "Wounded": "wounded",
                 "Scared": "scared", "The monster misses": "misses"}
        key = f"compare_counter.{kind}_{slugs[m.group(1)]}" if m else ""
        return i18n.t(key, self.lang) if key and self.lang != i18n.FALLBACK and i18n.has(key, self.lang) else english

    def _cite(self, doc: str, line: int) -> str:
        from ..siblings import Source

        return citation(Source("doc", doc, line), self.lang)

    def _game_name(self, game: str) -> str:
        en, zh, _ = GAMES[game]
        return zh if self.lang == "zh" else en

    def _game_options(self) -> list[tuple[str, str]]:
        out = []
        for key, (en, zh, _) in GAMES.items():
            first = self._game_name(key)
            out.append((f"{first} {zh if first == en else en}", key))
        return out

    def _difficulty_options(self) -> list[tuple[str, str]]:
        return [(self._data_word("difficulty", d), d) for d in dungeon_fighter.DIFFICULTY_POINTS]

    def _die_options(self) -> list[tuple[str, str]]:
        return [(self._data_word("die", d), d) for d in dungeon_fighter.DICE]

    def _policy_options(self) -> list[tuple[str, str]]:
        return [(self._data_word("policy", p), p) for p in dungeon_lords.POLICIES]

    def _error_text(self, exc: BaseException) -> str:
        if isinstance(exc, _Refused):
            reason = self.t(exc.key, **exc.values)
        elif isinstance(exc, i18n.Refusal):
            reason = exc.text(self.lang)
        else:
            reason = str(exc) or type(exc).__name__
            for pattern, key in _KERNEL_MESSAGES:
                m = pattern.fullmatch(reason)
                if m:
                    reason = self.t(key, **m.groupdict())
                    break
        return self.t("compare.sorry", reason=reason)

    def _set_status(self, status_attr: str, exc: BaseException | None) -> None:
        self._errors[status_attr] = exc
        getattr(self, status_attr).value = "" if exc is None else _error(self._error_text(exc))

    def relabel(self) -> None:
        """Every label in the current language (the tabs' contents are redrawn by ``refresh``)."""
        t = self.t
        self._relabelling = True
        try:
            self.tabs.titles = tuple(t(key) for key in self.TAB_KEYS)
            set_options(self.game_a, self._game_options())
            set_options(self.game_b, self._game_options())
            set_options(self.difficulty, self._difficulty_options())
            set_options(self.eye_die, self._die_options())
            set_options(self.policy, self._policy_options())
        finally:
            self._relabelling = False
        label_all(self, self.LABELS, t)
        for w in (self.game_a, self.game_b, self.sword, self.hand, self.difficulty, self.survivors,
                  self.dead, self.white, self.gold, self.tokens, self.eye_die, self.players,
                  self.policy, self.years, self.sim_seed):
            w.style = {**({"button_width": "auto"} if w is self.eye_die else {}),
                       "description_width": "initial"}

    def refresh(self) -> None:
        """Redraw every tab in the current language (the last simulation is shown again, not
        run again)."""
        self._on_compare()
        self._on_odds()
        self._on_score()
        self._redraw_lords()

    # --- callbacks ---------------------------------------------------------------------------

    def _cooperation_html(self) -> str:
        """Which of the four games are cooperative and which competitive, whatever pair is
        chosen below (the data's ``cooperation`` facts, cited in the table)."""
        cells = {c["game"]: c["value"] for c in comparison._data()["cell"] if c["attribute"] == "cooperation"}
        items = "".join(f"<li><b>{html.escape(self._game_name(g))}</b>: "
                        f"{html.escape(self._fact(g, 'cooperation', cells[g]))}</li>" for g in GAMES if g in cells)
        return (f"<div class='dg-cmp-cooperation'><b>{html.escape(self.t('compare.cooperation_all'))}</b>"
                f"<ul style='margin:2px 0 8px 18px;padding:0'>{items}</ul></div>")

    @_friendly("compare_status")
    def _on_compare(self, change=None) -> None:
        t = self.t
        a, b = self.game_a.value, self.game_b.value
        rows = comparison.side_by_side_rows(a, b)
        games = [a] + ([b] if b != a else [])
        self.cooperation.value = self._cooperation_html()
        body = [f"<table><tr><th>{html.escape(t('compare.col_attribute'))}</th>"]
        body += [f"<th>{html.escape(self._game_name(g))}</th>" for g in games]
        body.append("</tr>")
        cells = {(c["game"], c["attribute"]): c for c in comparison._data()["cell"]}
        for row in rows:
            key = row["key"]
            label = self._data_word("attribute", key, row["label"])
            body.append(f"<tr><td>{html.escape(label)}</td>")
            for fact in row["cells"]:
                g = fact["game"]
                cell = cells.get((g, key))
                value = self._fact(g, key, fact["value"])
                cite = (citations_html(cell["sources"], self.lang) if cell is not None
                        else f"<div>{html.escape(fact['sources'])}</div>")
                body.append(f"<td>{html.escape(value)}<div class='src'>{cite}</div></td>")
            body.append("</tr>")
        body.append("</table>")
        shared = comparison.shared_mechanisms(a, b)
        sim = comparison.jaccard(a, b)
        body.append("<p>" + _fill(t("compare.shared"),
                                  shared=html.escape(i18n.join_list((self._mechanism(m) for m in shared), "zh")
                                                     if self.lang == "zh" else i18n.join_list(shared, "en") or t("compare.none"))
                                  if shared else html.escape(t("compare.none")),
                                  sim=html.escape(str(sim)), approx=f"{float(sim):.2f}") + "</p>")
        self.table.value = "".join(body)

    @_friendly("odds_status")
    def _on_odds(self, change=None) -> None:
        t = self.t
        bonus, hand = self.sword.value, self.hand.value
        win = comparison.win_chance_rows(bonus)
        counter = [{**row, "outcome": self._counter("outcome", row["outcome"]),
                    "effect": self._counter("effect", row["outcome"], row["effect"]),
                    "source": citation(band.source, self.lang)}
                   for row, band in zip(comparison.counter_attack_rows(), dungeon.COUNTER_ATTACK)]
        win_headers = {"needed": t("compare.col_needed"), "P(win)": t("compare.col_p_win")}
        counter_headers = {
            "roll": t("compare.col_roll"), "outcome": t("compare.col_outcome"), "P": t("compare.col_p"),
            "effect": t("compare.col_effect"), "source": t("compare.col_source")}
        lost = dungeon.expected_cards_lost(hand)
        self.odds.value = (
            f"<h4>{_fill(t('compare.odds_win'), bonus=str(bonus))}</h4>"
            f"<p class='src'>{html.escape(t('compare.cite_win', a=self._cite('dungeon', 60), b=self._cite('dungeon', 99)))}</p>"
            f"{_table(win, win_headers)}<h4>{_fill(t('compare.odds_counter'))}</h4>"
            f"{_table(counter, counter_headers)}"
            "<p>" + _fill(t("compare.odds_loss"), hand=str(hand), lost=f"<b>{html.escape(str(lost))}</b>",
                          approx=f"{float(lost):.3f}") + "</p>")

    @_friendly("score_status")
    def _on_score(self, change=None) -> None:
        t = self.t
        counts = {name: checked_int(getattr(self, name), *RANGES[name], f"compare.{name}") for name in RANGES}
        score = dungeon_fighter.final_score(
            self.difficulty.value, self.boss.value, counts["survivors"], counts["dead"],
            counts["white"], counts["gold"], counts["tokens"])
        rows = "".join(f"<tr><td>{html.escape(self._data_word('part', k))}</td><td>{v:+d}</td>"
                       f"<td class='src'>{html.escape(citation(dungeon_fighter.SCORE_SOURCES[k], self.lang))}</td></tr>"
                       for k, v in score.parts)
        tier = score.tier
        name = f"<b>{html.escape(tier.name_zh)}</b>"  # the tier as printed; in English also translated
        if self.lang != "zh":
            name += f" “{html.escape(tier.name)}”"
        rating = _fill(t("compare.rating"), name=name, range=html.escape(tier.label),
                       source=f"<span class='src'>{html.escape(citation(tier.source, self.lang))}</span>")
        self.score.value = (
            f"<table><tr><th>{html.escape(t('compare.col_part'))}</th>"
            f"<th>{html.escape(t('compare.col_points'))}</th>"
            f"<th>{html.escape(t('compare.col_source'))}</th></tr>{rows}"
            f"<tr><th>{html.escape(t('compare.total'))}</th><th>{score.total}</th><th></th></tr></table>"
            f"<p>{rating}</p>")
        die = dungeon_fighter.DICE[self.eye_die.value]
        eyes = comparison.eye_rows(die.name)
        names = {}
        for column in (eyes[0] if eyes else {}):
            m = re.fullmatch(r"(\d+) eyes", str(column))
            if m:
                names[column] = t("compare.col_eyes", k=m.group(1))
        names.update({"dice": t("compare.col_dice"), "at least 1": t("compare.col_at_least_one")})
        title = _fill(t("compare.eyes_title"), die=html.escape(self._data_word("die", die.name)),
                      eyes=str(die.eyes), faces=str(die.faces), source=html.escape(citation(die.source, self.lang)))
        self.eyes.value = f"<h4>{title}</h4>{_table(eyes, names)}"

    @_friendly("lords_status")
    def _on_run(self, button=None) -> None:
        counts = tuple(sorted(self.players.value))
        if not counts:
            raise _Refused("compare.no_players")
        years, policy = self.years.value, self.policy.value
        seed = checked_int(self.sim_seed, 0, SEED_MAX, "compare.seed")
        rows = comparison.contention_rows(counts, years=years, seed=seed, policy=policy)
        self._lords_run = {"counts": counts, "years": years, "seed": seed, "policy": policy,
                           "rows": rows}
        self._show_lords()

    def _on_lords_settings(self, change=None) -> None:
        """A setting of the simulation changed: the table below is the last run's, and the
        status says so until Simulate is pressed (a control never changes nothing)."""
        run = self._lords_run
        if self._errors.get("lords_status") is not None or run is None:
            return
        same = (tuple(sorted(self.players.value)), self.years.value, self.policy.value,
                str(self.sim_seed.value)) == (run["counts"], run["years"], run["policy"], str(run["seed"]))
        note = self.t("compare.lords_pending", run=self.t("compare.run"))
        self.lords_status.value = "" if same else f"<p class='dg-note dg-lords-pending'><b>{html.escape(note)}</b></p>"

    @_friendly("lords_status", clear=False)
    def _redraw_lords(self) -> None:
        """The status and the last simulation again, in the current language."""
        self._set_status("lords_status", self._errors.get("lords_status"))
        self._show_lords()

    def _show_lords(self) -> None:
        from ..viz.explorer import wrapped  # a chart's words on two lines (loaded with the first chart)

        run = self._lords_run
        if run is None:
            return
        t = self.t
        rows, counts = run["rows"], run["counts"]
        shown = [{**row, "position": t("compare.all_positions") if row["position"] == "all" else row["position"],
                  "no-slot rate": f"{row['no-slot rate']:.2%}"} for row in rows]
        headers = {"players": t("compare.col_players"), "position": t("compare.col_position"),
                   "no-slot rate": t("compare.col_no_slot"), "orders chosen": t("compare.col_orders")}
        exact = []
        for n in counts:
            ex = dungeon_lords.first_card_no_slot_exact(n)
            exact.append(t("compare.exact_item", n=n, p=ex[n - 1]))
        intro = _fill(t("compare.lords_intro"), years=str(run["years"]),
                      rounds=str(dungeon_lords.ROUNDS_PER_YEAR),
                      policy=f"<i>{html.escape(self._data_word('policy', run['policy']))}</i>",
                      seed=html.escape(str(run["seed"])), source=html.escape(self._cite("lords", 46)))
        note = _fill(t("compare.lords_exact"), exact=html.escape("; ".join(exact)))
        self.lords_table.value = f"<p>{intro}</p>{_table(shown, headers)}<p class='src'>{note}</p>"
        fig = graphs.draw_contention(rows)
        for trace, (n, group) in zip(fig.data, graphs.contention_groups(rows)):
            trace.name = t("compare.chart_players", n=n)
            trace.x = [t("compare.chart_position", p=r["position"]) for r in group]
        # the title in two lines when long: plotly never wraps one (cut on a 390-px phone)
        fig.update_layout(title=wrapped(t("compare.chart_title"), TITLE_COLUMNS), yaxis_title=t("compare.chart_rate"))
        self.lords_figure = fig
        # set in the Output's state, as every widget's figure (issue 54): not `display` inside
        # `with self.lords_plot`, whose output reaches the page only if the client running the
        # cell (Voila's executor, JupyterLab's page) captures it and sends it back to the kernel
        show_figure(self.lords_plot, fig)


__all__ = ["CompareExplorer"]
