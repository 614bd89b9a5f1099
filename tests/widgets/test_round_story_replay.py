"""Replay the narration (issue 32, item 3): the round story's button shows the whole story of
the last resolved round again and puts it, title first, into a visually hidden node the page's
aria-live region says (``widgets/a11y.py`` listens to ``.dg-story-replay``), in either language;
each replay is a new node (a counter), and the next change of the game clears it."""

from __future__ import annotations

import re
from html import unescape

import pytest

from dungeon_guilds import i18n
from dungeon_guilds.widgets.narration import resolution_steps
from dungeon_guilds.widgets.stepper import RoundStepper


def replayed(story) -> tuple[int, str]:
    m = re.fullmatch(r'<div class="dg-story-replay dg-visually-hidden" data-replay="(\d+)">(.*)</div>',
                     story.replay_html.value)
    assert m, story.replay_html.value
    return int(m.group(1)), unescape(m.group(2))


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_replay_shows_and_says_the_last_rounds_story(lang):
    s = RoundStepper(players=3, seats=["first", "first", "first"], seed=4, lang=lang, timeline=False)
    story = s.story
    assert story.layout.display == "none"  # no round resolved yet: nothing to replay
    s.run("round")
    assert story.replay_button.description == i18n.t("narr.replay", lang)
    assert story.replay_html.value == ""
    steps = resolution_steps(s.game.log, 1, s.game.names, lang)
    assert story.steps == steps and story.index == 0
    story.replay_button.click()
    count, said = replayed(story)
    assert count == 1
    title = i18n.t("narr.title", lang, round=1)
    assert said == (f"{title}: {' '.join(steps)}" if lang == "en" else f"{title}：{''.join(steps)}")
    shown = re.findall(r'<li class="dg-story-step[^"]*">(.*?)</li>', story.text_html.value)
    assert [unescape(x) for x in shown] == steps  # every step shown again, not only the first
    story.replay_button.click()
    assert replayed(story) == (2, said)  # said again: a new node, the same words
    s.step()  # the game moves on: the replay is not said again by the next redraw
    assert story.replay_html.value == ""


def test_replay_follows_the_language_toggle():
    s = RoundStepper(players=3, seats=["first", "first", "first"], seed=4, timeline=False)
    s.run("round")
    s.language_toggle.value = "zh"
    s.story.replay_button.click()
    assert replayed(s.story)[1].startswith(i18n.t("narr.title", "zh", round=1) + "：")
    assert s.story.replay_button.description == "重播這回合的說明"
