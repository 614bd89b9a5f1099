"""Lesson 4's worked positions: one real position an idea, its answer the judge's (issue 49, item 7).

Each :class:`WorkedPosition` is a moment of a real game of four ``greedy`` bots (the seed and
the moves played before it, rebuilt with :class:`~dungeon_guilds.game.Game`, so every move is
the engine's and legal), the seat to move, a few moves for the student to choose from (the move
the greedy bot really played among them), and the answer: the move the judge
(:func:`~dungeon_guilds.analysis.judge.judge`, every seat continued by its model, the table's
greedy bots) finds best. The ideas are lesson 4's (``strings/<lang>/worked.toml`` words them):

=============  =================================================================================
``ahead``      look one move ahead: what the next player does after your move (R4.1, R4.4)
``lock``       lock a room to protect a share (R4.3)
``greedy``     how greedy opponents play: 1s in risky rooms, a join or a bump whenever it pays now
``rest``       resting in step or out of step with the others (R2.4, R6.2)
``standings``  the standings late in the game: deny the leader (R8.1)
``unseen``     counting the unseen rooms (R1.2, R2.3, R5.1)
=============  =================================================================================

:func:`measure` values the choices shown on the same worlds (every choice played in every world,
so each difference is paired) and the full judge's best among *all* legal moves with the greedy
move checked on fresh worlds (its headline, :mod:`~dungeon_guilds.analysis.judge_headline`).
The figures ship in ``data/worked_positions.json``; ``python -m
dungeon_guilds.teaching.worked_positions`` writes them again. ``tests/teaching/test_worked_positions.py``
re-judges every position with a small fixed budget and checks the answer the lesson gives.
Notebook 10 draws each position and reveals the figures (:func:`reveal_html`).
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from html import escape
from pathlib import Path
from typing import Any

from .. import i18n
from ..actions import parse
from ..drawing.board_text import board_lines
from ..game import Game
from ..rules import Rules

__all__ = ["IDEAS", "MODELS", "NAMES", "POSITIONS", "WorkedPosition", "FULL", "SHOWN", "by_key", "game",
           "measure", "judge_shown", "judge_full", "reveal_html", "shipped", "percent", "main", "board_markdown",
           "lesson_block", "choice_words"]

NAMES = ("Ann", "Bo", "Cy", "Di")
MODELS = ("greedy",) * 4  # the table: four greedy bots; the judge continues each seat as one
IDEAS = ("ahead", "lock", "greedy", "rest", "standings", "unseen")
DATA = Path(__file__).resolve().parents[1] / "analysis" / "data" / "worked_positions.json"
COMMAND = "nice -n 19 python -m dungeon_guilds.teaching.worked_positions"


@dataclass(frozen=True)
class WorkedPosition:
    """A decision of a real game: ``seed`` and the ``moves`` before it (``Game.push`` words,
    separated by ``;``);
    the ``choices`` shown, the ``natural`` move (what the greedy bot played) and the ``answer``
    (the judge's best); ``quiz``: asked in the exit quiz instead of worked in the lesson."""

    key: str
    idea: str
    seed: str
    moves: str
    choices: tuple[str, ...]
    natural: str
    answer: str
    quiz: bool = False

    @property
    def seat(self) -> int:
        return game(self).state.current


POSITIONS: tuple[WorkedPosition, ...] = (
    WorkedPosition("ahead", "ahead", "wp9",
                   "exhaust 4 5; exhaust 4 5; exhaust 4 5; exhaust 4 5; place 1 2; place 1 3; "
                   "place 1 2; place 1 3; place 3 1; place 2 1; place 2 4; place 3 4; place 5 1; "
                   "place 5 2; place 4 2; place 2 1; place 5 3; place 2 3; place 3 4; place 4 4; "
                   "place 4 1; place 5 1; place 4 2; place 3 2; place 2 3; place 3 3; place 3 4; "
                   "place 2 4; place 1 2; place 1 3; place 1 4",
                   ('place 1 2', 'place 1 3', 'place 3 1'), "place 1 3", "place 3 1"),
    WorkedPosition("lock", "lock", "wp23",
                   "exhaust 4 5; exhaust 4 5; exhaust 4 5; exhaust 4 5; place 1 1; place 3 1; "
                   "place 1 4; place 1 4; bump 3 1a; place 3 2; place 2 2; place 1 3; place 3 3; "
                   "place 5 1; place 5 2; place 4 1; place 2 2; place 5 3; place 5 3; place 2 4; "
                   "place 1 4; place 1 1; place 1 2; place 1 2; place 3 4; place 4 1; bump 4 1a; "
                   "place 3 4; place 1 3; place 3 3; place 2 3; place 3 4; place 1 4; place 2 2; "
                   "place 5 1; place 5 1; place 5 2",
                   ('swap 4 3a', 'place 5 3', 'place 4 3'), "place 5 3", "swap 4 3a"),
    WorkedPosition("greedy", "greedy", "wp27",
                   "exhaust 4 5; exhaust 4 5; exhaust 4 5; exhaust 4 5; place 1 2; place 1 3; "
                   "place 1 3; place 1 1; place 3 1; bump 3 1a; place 2 4; place 3 4; place 1 2; "
                   "place 5 1; place 2 1; place 2 3; place 2 3; place 5 2; place 5 2; bump 5 3a; "
                   "place 3 4; place 2 4; place 4 1; place 4 1; place 4 2; place 4 2; place 1 4; "
                   "place 1 3; place 1 3; place 1 4; place 5 1",
                   ('place 5 1', 'place 2 1', 'place 2 2'), "place 5 1", "place 2 2"),
    WorkedPosition("standings", "standings", "wp21",
                   "exhaust 4 5; exhaust 4 5; exhaust 4 5; exhaust 4 5; place 3 1; place 3 1; "
                   "place 1 4; place 1 3; place 3 2; place 2 2; place 1 3; place 1 4; place 2 2; "
                   "place 3 4; place 2 3; place 2 4; place 5 1; place 4 1; place 5 2; place 5 3; "
                   "place 4 1; place 5 1; place 4 2; place 1 2; place 3 3; place 3 3; place 1 4; "
                   "place 1 4; place 4 1; place 5 1; place 2 3; place 2 4; swap 3 4a",
                   ('place 4 2', 'swap 5 3a', 'place 5 2'), "place 5 2", "place 4 2"),
    WorkedPosition("unseen", "unseen", "wp9",
                   "exhaust 4 5; exhaust 4 5; exhaust 4 5; exhaust 4 5",
                   ('place 1 2', 'place 2 1', 'place 1 1'), "place 1 2", "place 2 1"),
    WorkedPosition("rest", "rest", "wp50",
                   "exhaust 4 5; exhaust 4 5; exhaust 4 5; exhaust 4 5; place 3 1; place 3 1; place 1 4; "
                   "place 1 4; place 3 2; place 3 2; place 1 3; place 1 3; place 5 1",
                   ('place 5 2', 'place 4 2', 'place 2 3'), "place 5 2", "place 2 3"),
    WorkedPosition("quiz1", "unseen", "wp20",
                   "exhaust 4 5; exhaust 4 5; exhaust 4 5; exhaust 4 5; place 1 2; place 1 1; "
                   "place 3 1; bump 3 1a; place 1 3; place 1 4; place 1 3; place 2 4; place 3 2; "
                   "place 5 1; place 5 2; place 5 1; place 4 2; place 3 4; place 2 4; place 2 3; "
                   "place 4 3; place 4 1; place 4 2; place 5 1; place 2 2; place 3 4; place 2 3; "
                   "place 3 4; place 3 3; place 5 1; place 1 1; place 1 2; place 5 2; bump 2 2a",
                   ('place 5 3', 'place 1 4'), "place 1 4", "place 5 3", quiz=True),
    WorkedPosition("quiz2", "ahead", "wp31",
                   "exhaust 4 5; exhaust 4 5; exhaust 4 5; exhaust 4 5; place 1 1; place 3 1; bump 2 1a; "
                   "place 1 3; place 3 2; place 3 2; place 1 4; place 3 3; bump 2 3a; place 1 4; place 5 1; "
                   "place 4 1; place 2 3; place 1 3; place 5 2; place 5 2; place 1 4; place 2 4; place 5 1; "
                   "place 3 1; place 2 3; place 1 4; place 3 2; place 4 2; bump 4 2a; place 3 4; place 3 3; "
                   "place 1 3",
                   ('place 1 1', 'place 3 1'), "place 1 1", "place 3 1", quiz=True),
)


def by_key(key: str) -> WorkedPosition:
    for p in POSITIONS:
        if p.key == key:
            return p
    raise KeyError(f"no worked position {key!r} (positions: {', '.join(p.key for p in POSITIONS)})")


def game(p: WorkedPosition) -> Game:
    """The position rebuilt: the game of seed ``p.seed`` (four players, the base lords, the
    reference deck) with ``p.moves`` played by the engine."""
    g = Game(list(NAMES), seed=p.seed, rules=Rules(lords="base"))
    for move in p.moves.split(";"):
        g.push(move.strip())
    return g


# the budgets: the shown choices on the same worlds (no race: every choice in every world);
# the full judge over every legal move, the greedy move checked on fresh worlds
def _shown_budget(worlds: int):
    from ..analysis.judge import Budget  # measuring only: notebook 10 and the static site read the figures

    return Budget(worlds=worlds, min_worlds=worlds, batch=8, check=0)


SHOWN = 96
FULL = (48, 96)


def judge_shown(p: WorkedPosition, worlds: int = SHOWN, seed: int | str = "lesson4"):
    """The judge's values of the choices shown, every choice played in the same ``worlds``."""
    from ..analysis.judge import judge
    from ..analysis.opponents import playout_for

    st = game(p).state
    return judge(st, st.current, _shown_budget(worlds), seed=seed, playout=playout_for(MODELS),
                 legal=[parse(c) for c in p.choices])


def judge_full(p: WorkedPosition, seed: int | str = "lesson4"):
    """The judge over every legal move, the greedy move checked on fresh worlds; its decision."""
    from ..analysis.judge import Budget, judge
    from ..analysis.judge_review import JudgedDecision
    from ..analysis.opponents import playout_for

    g = game(p)
    st = g.state
    natural = parse(p.natural)
    j = judge(st, st.current, Budget(worlds=FULL[0], check=FULL[1]), seed=seed,
              playout=playout_for(MODELS), check=natural)
    return JudgedDecision(len(g.line), st.current, st.round + 1, natural, j, st)


def measure(p: WorkedPosition) -> dict[str, Any]:
    """The figures a position ships with (module docstring)."""
    from ..analysis.judge_headline import headline, headline_text

    shown = judge_shown(p)
    d = judge_full(p)
    return {
        "seat": shown.seat, "worlds": SHOWN, "best": str(shown.best.action),
        "choices": {str(v.action): {"win": round(v.win, 4), "se": round(v.win_se, 4), "loss": round(v.loss, 4),
                                    "loss_se": round(v.loss_se, 4)} for v in shown.moves},
        "full": {"best": str(d.best.action), "legal": d.n_moves, "worlds": list(FULL),
                 "natural_loss": round(d.made.loss, 4), "natural_loss_se": round(d.made.loss_se, 4),
                 "headline": headline(d).kind,
                 "says": {lang: headline_text(d, lang) for lang in ("en", "zh")}},
    }


def shipped() -> dict[str, Any]:
    """The figures shipped with the package (``data/worked_positions.json``)."""
    return json.loads(DATA.read_text("utf-8"))


def percent(share: float) -> str:
    """A win chance as a plain percentage (``37 %``)."""
    return f"{round(100 * share)} %"


def t(key: str, lang: str | None = None, **values) -> str:
    """A word of the worked positions (``worked.*`` in ``strings/<lang>/worked.toml``)."""
    return i18n.t(f"worked.{key}", lang, **values)


def choice_words(p: WorkedPosition, lang: str | None = None) -> list[tuple[str, str]]:
    """The choices as the student reads them, (words, move), in the order shown."""
    st = game(p).state
    return [(i18n.action_text(parse(c), lang, st), c) for c in p.choices]


def reveal_html(p: WorkedPosition, guess: str, lang: str | None = None, data: dict | None = None) -> str:
    """What the check shows: each choice's win chance as the judge played it out, the judge's
    best, the student's pick, and the decision's headline in game words."""
    fig = (data or shipped())["positions"][p.key]
    words = dict((c, w) for w, c in choice_words(p, lang))
    rows = "".join(
        f"<li>{'<b>' if c == fig['best'] else ''}"
        f"{escape(t('chance', lang, move=words[c], pct=percent(fig['choices'][c]['win'])))}"
        f"{'</b>' if c == fig['best'] else ''}{t('yours', lang) if c == guess else ''}</li>" for c in p.choices)
    says = fig["full"]["says"][lang or i18n.get_language()]
    verdict = t("right" if guess == fig["best"] else "wrong", lang, best=words[fig["best"]])
    chances = t("chances", lang, worlds=fig["worlds"], name=NAMES[fig["seat"]])
    return (f"<p>{escape(verdict)}</p><p>{escape(chances)}</p><ul>{rows}</ul>"
            f"<p>{escape(t('greedy_played', lang, natural=words[p.natural]))} <i>{escape(says)}</i></p>"
            f"<p>{escape(t(f'{p.key}.why', lang))}</p>")


def board_markdown(p: WorkedPosition, lang: str | None = None) -> list[str]:
    """The board as the player to move sees it, in words (:func:`board_lines`), one item a line."""
    st = game(p).state
    return [f"- {line}" for line in board_lines(st, lang, viewer=st.current)]


def lesson_block(p: WorkedPosition, lang: str = "en", data: dict | None = None) -> str:
    """A position as lesson 4 prints it (between ``<!-- position: KEY -->`` and
    ``<!-- /position -->``): the question, the board in words, the choices; a worked position
    then gives the judge's figures, its headline and the idea; a quiz position only its answer
    (``Answer: **…**`` and why, one line, blanked in the students' copy)."""
    fig = (data or shipped())["positions"][p.key]
    st = game(p).state
    words = dict((c, w) for w, c in choice_words(p, lang))
    choices = t("sep", lang).join(t("choice", lang, letter="abc"[k], move=words[c]) for k, c in enumerate(p.choices))
    mark = "*" if p.quiz else "**"  # the students' copy of the quiz has no bold (the answers' mark)
    lines = [f"<!-- position: {p.key} -->", f"{mark}{t('heading', lang, title=t(p.key + '.title', lang))}{mark} "
             f"{t('question', lang, name=st.names[st.current], seat=st.current + 1)}", ""]
    lines += board_markdown(p, lang) + ["", t("choices", lang, choices=choices), ""]
    if p.quiz:
        lines.append(f"{t('answer_line', lang)}**{words[fig['best']]}**{t('because', lang, why=t(p.key + '.why', lang))}")
    else:
        moves = i18n.join_list((t("chance", lang, move=words[c], pct=percent(fig["choices"][c]["win"]))
                                for c in p.choices), lang)
        lines += [t("judge_line", lang, moves=moves, name=st.names[st.current]), "",
                  f"{t('greedy_played', lang, natural=words[p.natural])} *{fig['full']['says'][lang]}*", "",
                  t(p.key + ".why", lang)]
    return "\n".join(lines + ["<!-- /position -->"])


def write(path: Path = DATA, keys: list[str] | None = None) -> dict[str, Any]:
    """Measure the positions (``keys``: only those, the others kept from the file) and write
    the figures (the regeneration command)."""
    old = json.loads(path.read_text("utf-8"))["positions"] if keys and path.exists() else {}
    data = {"format": 1, "command": COMMAND, "models": list(MODELS), "shown_worlds": SHOWN, "full": list(FULL),
            "positions": {p.key: measure(p) if not keys or p.key in keys else old[p.key] for p in POSITIONS}}
    path.write_text(json.dumps(data, indent=1, ensure_ascii=False) + "\n", "utf-8")
    return data


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description="Measure lesson 4's worked positions with the judge.")
    parser.add_argument("--out", type=Path, default=DATA)
    parser.add_argument("--only", nargs="*", help="measure only these positions (the others kept)")
    args = parser.parse_args(argv)
    data = write(args.out, args.only)
    for key, f in data["positions"].items():
        print(key, f["best"], {c: percent(v["win"]) for c, v in f["choices"].items()}, f["full"]["best"])


if __name__ == "__main__":
    main()
