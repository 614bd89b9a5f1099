"""The game board drawn as SVG, from the engine's state (as python-chess draws boards).

One pure function, :func:`board_svg`: the dungeon from the top room down (each room card with
its level, the defence and treasure ranges printed on the back, the exact values once
revealed, the lock threshold after the lord's modifier, locked or not, and what replacing
there costs), the adventurer tokens in their owner's colour with their strength, each
player's gold and hand (exhausted cards face down), the Dungeon Lord card with its effect in
words, and the snake turn-order track (R4.1) with the player to move.

Nothing here decides a rule: thresholds, costs and refusals are the engine's answers
(:meth:`State.lock_threshold`, :meth:`State.action_fees`, :meth:`State.refusal`,
:meth:`State.legal_actions`), hands are read through :meth:`State.view` when a ``viewer`` is
given (no hidden choice leaks), and revealed fronts come from the engine's log.

What a player may click now is the interaction model's answer
(:func:`dungeon_guilds.board_targets.board_targets`); given those targets, this module draws
them as ``role="button"`` elements with an accessible name, and the widget
(:mod:`dungeon_guilds.widgets.board`) makes them clickable; the picture is the same in a
notebook (``Game._repr_html_``).

Colours are the Okabe–Ito palette (safe for the common colour-vision deficiencies) and every
seat also has its own pattern and its name's letter on each token.
"""

from __future__ import annotations

from functools import lru_cache
from html import escape
from pathlib import Path
from typing import Mapping, Sequence

from .. import i18n, rule_cards
from ..board_targets import Target, t
from ..events import resolution, rooms_round
from ..money_html import dollars_as_text
from ..payout import NPC
from ..state import BUMP_FEES, EMPTY, OVER, SETUP, SWAP_FEE
from ..turn_order import seat_at
from .colours import NPC_COLOUR, PATTERNS, colour
from .resolving import ResolutionFrame

WIDTH = 660
ROOM_W = 410
PLAYER_X = 420
SLOT_W, SLOT_H, TAG_H = 60, 46, 14  # a room's two slots, and the cost tag under each
SLOT_X = ROOM_W - 2 * (SLOT_W + 8)  # the first slot's left edge
ROOM_H = 5 + SLOT_H + 1 + TAG_H + 2 + 6  # slot, tag, margin, the gap to the next room
PLAYER_W = WIDTH - PLAYER_X
TOP = 56  # below the title and the turn track
# a seat's box: its name and gold, its hand (a card's ring ends 66 below the top), then the green
# button, GO_H tall: 44 CSS px once the seats are drawn 1.375 times larger (the class table page
# on a phone or a tablet, app/tables/static/board_layout.js)
PLAYER_H, GO_H = 108, 32
LEVEL_FILL = {1: "#f3efe4", 2: "#e6dcc4", 3: "#d6c7a1"}
FONT = "system-ui,-apple-system,'Segoe UI','Noto Sans CJK TC','Noto Sans TC',sans-serif"


# ---------------------------------------------------------------------- drawing helpers
def _text_width(text: str, size: float) -> float:
    return sum(size * (1.0 if ord(c) > 0x2E7F else 0.56) for c in text)


def wrap(text: str, width: float, size: float) -> list[str]:
    """Break ``text`` into lines no wider than ``width`` (at words for Latin text, anywhere
    for Chinese)."""
    cjk = any(ord(c) > 0x2E7F for c in text)
    tokens = list(text) if cjk else text.split(" ")
    sep = "" if cjk else " "
    lines, line = [], ""
    for tok in tokens:
        candidate = f"{line}{sep}{tok}" if line else tok
        if line and _text_width(candidate, size) > width:
            lines.append(line)
            line = tok
        else:
            line = candidate
    if line:
        lines.append(line)
    return lines


@lru_cache(maxsize=8192)  # pure: a class table's boards draw the same texts at every move (issue 37)
def _txt(x, y, text, size=12, weight="normal", anchor="start", fill="#222", cls="") -> str:
    c = f' class="{cls}"' if cls else ""
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-size="{size}" font-weight="{weight}" '
            f'text-anchor="{anchor}" fill="{fill}"{c}>{escape(str(text))}</text>')


def _fit_txt(x, y, text, size, width, weight="normal", anchor="start", fill="#222", cls="") -> str:
    """A text no wider than ``width``: squeezed (SVG ``textLength``) when it would be wider."""
    out = _txt(x, y, text, size, weight, anchor, fill, cls)
    estimate = _text_width(str(text), size)
    if estimate > width * 0.92:  # the estimate is rough: leave a margin
        out = out.replace("<text ", f'<text textLength="{min(estimate, width * 0.96):.1f}" '
                                    f'lengthAdjust="spacingAndGlyphs" ', 1)
    return out


def _defs() -> str:
    pats = [
        '<pattern id="dg-p-diag" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
        '<rect width="2.2" height="6" fill="#fff" fill-opacity=".55"/></pattern>',
        '<pattern id="dg-p-dots" width="6" height="6" patternUnits="userSpaceOnUse">'
        '<circle cx="3" cy="3" r="1.3" fill="#fff" fill-opacity=".7"/></pattern>',
        '<pattern id="dg-p-hlines" width="6" height="6" patternUnits="userSpaceOnUse">'
        '<rect width="6" height="2" fill="#fff" fill-opacity=".55"/></pattern>',
        '<pattern id="dg-p-cross" width="7" height="7" patternUnits="userSpaceOnUse">'
        '<path d="M0 0L7 7M7 0L0 7" stroke="#fff" stroke-opacity=".6" stroke-width="1.3"/></pattern>',
        '<pattern id="dg-p-vlines" width="6" height="6" patternUnits="userSpaceOnUse">'
        '<rect width="2" height="6" fill="#fff" fill-opacity=".55"/></pattern>',
        '<pattern id="dg-p-back" width="5" height="5" patternUnits="userSpaceOnUse" patternTransform="rotate(45)">'
        '<rect width="5" height="5" fill="#5b4a6b"/><rect width="2" height="5" fill="#7a678c"/></pattern>',
    ]
    return f"<defs>{''.join(pats)}</defs>"


@lru_cache(maxsize=1024)  # pure, as _txt
def _swatch(x, y, w, h, owner: int, rx=4) -> str:
    """A seat's colour with its pattern on top (or the NPC's grey)."""
    fill = NPC_COLOUR if owner == NPC else colour(owner)
    out = f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="{rx}" fill="{fill}" stroke="#333" stroke-width=".8"/>'
    if owner != NPC and owner >= 0:
        pat = PATTERNS[owner % len(PATTERNS)]
        if pat != "none":
            out += f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="{rx}" fill="url(#dg-p-{pat})"/>'
    return out


def _token(x, y, w, h, owner: int, strength: int, names: Sequence[str], lang: str) -> str:
    """An adventurer in a slot: owner colour + pattern, the owner's name, the strength."""
    who = i18n.player_name(names, owner, lang)
    label = escape(t("token", lang, owner=who, strength=strength))
    return (f'<g class="dg-slot dg-token" data-owner="{"npc" if owner == NPC else owner}" '
            f'data-strength="{strength}" aria-label="{label}">{_swatch(x, y, w, h, owner)}'
            f'<rect x="{x + 4}" y="{y + h - 24}" width="{w - 8}" height="20" rx="3" fill="#fff" fill-opacity=".92"/>'
            f'{_txt(x + w / 2, y + h - 8.5, strength, 15, "bold", "middle")}'
            f'<rect x="{x + 3}" y="{y + 3}" width="{w - 6}" height="14" rx="2" fill="#fff" fill-opacity=".85"/>'
            f'{_txt(x + w / 2, y + 14, who[:7], 10.5, "600", "middle")}</g>')


def _padlock(x, y) -> str:
    return (f'<g class="dg-lock-icon"><path d="M{x + 3} {y + 7}v-3a4 4 0 0 1 8 0v3" fill="none" '
            f'stroke="#333" stroke-width="1.8"/><rect x="{x + 1}" y="{y + 7}" width="12" height="9" rx="1.5" '
            f'fill="#333"/></g>')


def _button(target: Target | None, inner: str, cls: str) -> str:
    """Wrap ``inner`` as a clickable target (or leave it plain)."""
    if target is None:
        return inner
    state = "on" if target.enabled else "off"
    pressed = f' aria-pressed="{"true" if target.pressed else "false"}"' if target.id.startswith("hand-") else ""
    return (f'<g class="dg-target dg-target-{state} {cls}" role="button" tabindex="{0 if target.enabled else -1}" '
            f'aria-disabled="{"false" if target.enabled else "true"}"{pressed} data-target="{escape(target.id)}" '
            f'aria-label="{escape(target.label)}"><title>{escape(target.label)}</title>{inner}</g>')


# ---------------------------------------------------------------------- parts of the board
def _title(state, lang: str, frame: ResolutionFrame | None = None) -> str:
    round_no = min(state.round + 1, state.rounds)
    text = t("title", lang, round=round_no, rounds=state.rounds)
    if frame is not None:  # a round being resolved: what this step is (issue 24)
        text += " · " + _frame_words(state, frame, lang)
    elif state.phase == OVER:
        text += " · " + i18n.phase_name(OVER, lang)
    else:
        text += " · " + t("to_move", lang, name=state.names[state.current])
    return _txt(4, 18, text, 14.5, "bold", cls="dg-board-title")


def _frame_words(state, frame: ResolutionFrame, lang: str) -> str:
    if frame.kind == "room":
        return t("resolving_room", lang, room=frame.now[0] + 1 if frame.now else "")
    if frame.kind == "heal":
        return t("resolving_heal", lang, name=i18n.player_name(state.names, frame.heal_seat, lang))
    return t(f"resolving_{frame.kind}", lang)


def _track(state, lang: str, resolving: bool = False) -> str:
    """The snake turn order of this round (R4.1), the turn now marked (none while resolving)."""
    n = state.n
    out = [_txt(4, 43, t("track", lang), 11.5, "600")]
    x0 = 8 + _text_width(t("track", lang), 11.5)
    now = state.pos % (2 * n) if state.phase not in (SETUP, OVER) and not resolving else -1
    for k in range(2 * n):
        seat = seat_at(k, n, state.start)
        x = x0 + k * 25
        here = k == now
        out.append(f'<g class="dg-track-step{" dg-track-now" if here else ""}" data-seat="{seat}">'
                   f'{_swatch(x, 30, 21, 18, seat, 3)}<rect x="{x + 4}" y="{32}" width="13" height="14" rx="2" '
                   f'fill="#fff" fill-opacity=".9"/>{_txt(x + 10.5, 43, seat + 1, 10.5, "bold", "middle")}'
                   + (f'<rect x="{x - 2}" y="28" width="25" height="22" rx="4" fill="none" stroke="#000" '
                      f'stroke-width="2.5"/>' if here else "") + "</g>")
    return "".join(out)


def _room_lines(state, i: int, res, lang: str, pending: bool = False) -> list[tuple[str, str]]:
    """(text, css class) lines of a room card's middle: ranges or front, lock, costs."""
    card = state.rooms[i]
    info = state.levels[card.level]
    lines = []
    if res is not None and res.defence is not None:
        lines.append((t("front", lang, defence=res.defence, treasure=res.treasure), "dg-front"))
    else:
        lines.append((t("back", lang, d0=info.defence[0], d1=info.defence[1], t0=info.treasure[0],
                        t1=info.treasure[1]), "dg-back"))
    change = state.lord_defence_change(i)
    lock = t("locks_at", lang, value=state.lock_threshold(i))
    if change:
        lock += " " + t("lord_change", lang, change=f"{change:+d}")
    lines.append((lock, "dg-lock-at"))
    if res is not None and res.status in ("cleared", "failed"):
        return lines  # resolved: the outcome takes the cost line's place
    if res is not None:  # below a failed room: never revealed (R5.1)
        return lines + [(i18n.t("board.not_reached", lang), "dg-not-reached")]
    if pending:  # a round being resolved: this room's turn is still to come (R5.1)
        return lines + [(t("to_reveal", lang), "dg-to-reveal")]
    bank, owner = state_fees(card.level)
    cost = t("cost_line_owner", lang, bank=bank, gold=owner) if owner else t("cost_line", lang, bank=bank)
    lines.append((cost + "; " + t("cost_own", lang, bank=swap_fee()), "dg-costs"))
    return lines


def state_fees(level: int) -> tuple[int, int]:
    """The engine's replacement fees of a level (R4.4): (to the bank, to the replaced player)."""
    return BUMP_FEES[level]


def swap_fee() -> int:
    return SWAP_FEE  # R4.5


def _tag_words(state, action, lang: str) -> str:
    """The cost tag under a slot, short (the full sentence is the target's accessible name)."""
    bank, owner_gets, owner = state.action_fees(action)
    if owner_gets:
        return t("tag_bank_owner", lang, bank=bank, gold=owner_gets,
                 owner=i18n.player_name(state.names, owner, lang))
    return t("tag_bank", lang, bank=bank)


def _slot(state, j: int, x: float, y: float, w: float, h: float, lang: str, target: Target | None) -> str:
    owner, strength = state.slot(j // 2, j % 2)
    if owner == EMPTY:
        inner = (f'<g class="dg-slot dg-empty" data-owner=""><rect x="{x}" y="{y}" width="{w}" height="{h}" rx="5" '
                 f'fill="#fffdf7" stroke="#8a7a5a" stroke-dasharray="4 3"/>'
                 f'{_txt(x + w / 2, y + h / 2 + 4, t("free", lang), 10.5, "normal", "middle", "#6b5d40")}</g>')
    else:
        inner = _token(x, y, w, h, owner, strength, state.names, lang)
    if target is None:
        return inner
    hit = (f'<rect class="dg-hit" x="{x - 3}" y="{y - 3}" width="{w + 6}" height="{h + 6}" rx="7" '
           f'fill="{"#0072B2" if target.enabled else "none"}" fill-opacity=".12" '
           f'stroke="{"#0072B2" if target.enabled else "none"}" stroke-width="2.5"/>')
    tag = ""
    if target.enabled and target.cost:  # under the slot, inside the room, never wider than the slot
        words = _tag_words(state, target.action, lang)
        tag = (f'<rect class="dg-cost-tag" x="{x - 2}" y="{y + h + 1}" width="{w + 4}" height="{TAG_H}" rx="3" '
               f'fill="#0072B2"/>{_fit_txt(x + w / 2, y + h + 11, words, 9.5, w, "600", "middle", "#fff")}')
    return _button(target, hit + inner + tag, "dg-slot-target")


def _room(state, i: int, y: float, h: float, lang: str, res, targets: Mapping[str, Target],
          frame: ResolutionFrame | None = None) -> str:
    card = state.rooms[i]
    locked = bool(state.locked[i])
    status = res.status if res is not None else ""
    pending = frame is not None and res is None
    now = frame is not None and i in frame.now
    out = [f'<g class="dg-room{" dg-room-now" if now else ""}" data-room="{i + 1}" data-level="{card.level}" '
           f'data-locked="{int(locked)}" data-status="{status or ("pending" if pending else "")}">'
           f'<rect x="1" y="{y}" width="{ROOM_W - 2}" height="{h - 6}" rx="7" fill="{LEVEL_FILL.get(card.level, "#eee")}" '
           f'stroke="{"#222" if locked else "#9c8b66"}" stroke-width="{3 if locked else 1.2}"/>',
           _txt(24, y + 24, i + 1, 22, "bold", "middle"),
           _txt(24, y + 42, f"Lv{card.level}", 12, "bold", "middle", "#5a4a2a")]
    for k, (line, cls) in enumerate(_room_lines(state, i, res, lang, pending)):
        out.append(_fit_txt(48, y + 18 + 16 * k, line, 11.2 if k < 2 else 10.2, SLOT_X - 56,
                            "600" if k == 0 else "normal", fill="#222" if k < 2 else "#4a3d22", cls=cls))
    if locked:
        out.append(_padlock(48 + _text_width(_room_lines(state, i, res, lang)[1][0], 11.2) + 6, y + 22))
        out.append(_txt(48 + _text_width(_room_lines(state, i, res, lang)[1][0], 11.2) + 24, y + 34,
                        t("locked", lang), 11, "bold", cls="dg-locked-word"))
    if status in ("cleared", "failed"):
        colour_ = "#00704a" if status == "cleared" else "#b0351e"
        word = t(status, lang, total=res.total, defence=res.effective_defence)
        if status == "cleared" and res.to_bank:  # the remainder of the split (R5.2)
            word += " · " + t("to_bank", lang, gold=res.to_bank)
        out.append(_fit_txt(48, y + 50, word, 11, SLOT_X - 56, "bold", fill=colour_, cls=f"dg-{status}"))
    for x_slot in (0, 1):
        j = 2 * i + x_slot
        sx = SLOT_X + x_slot * (SLOT_W + 8)
        out.append(_cell(f"slot-{i + 1}-{x_slot}", _slot(state, j, sx, y + 5, SLOT_W, SLOT_H, lang,
                                                         targets.get(f"slot-{i + 1}-{x_slot}"))))
        if frame is not None:
            out.append(_frame_tag(state, i, x_slot, sx, y + 5, frame, lang))
    if now:  # the room the narration has reached
        out.append(f'<rect class="dg-now-ring" x="2.5" y="{y + 1.5}" width="{ROOM_W - 5}" height="{h - 9}" rx="6" '
                   f'fill="none" stroke="#D55E00" stroke-width="3.5"/>')
    out.append("</g>")
    return "".join(out)


def _frame_tag(state, i: int, x_slot: int, x: float, y: float, frame: ResolutionFrame, lang: str) -> str:
    """Under a token of a room reached: its owner's share of a cleared room (once per owner, on
    the owner's first token; R5.2), or its heal cost in a failed room or below (R6.1; an NPC
    pays none); the engine's amounts."""
    owner, strength = state.slot(i, x_slot)
    if owner == EMPTY or owner == NPC:
        return ""
    if i in frame.shares:
        first = x_slot == 0 or state.slot(i, 0)[0] != owner
        gold = frame.shares[i].get(owner, 0)
        if not first or not gold:
            return ""
        words, fill, cls = t("tag_share", lang, gold=gold), "#00704a", "dg-share-tag"
    elif i in frame.healing:
        words, fill, cls = t("tag_heal", lang, cost=state.heal_cost(strength)), "#b0351e", "dg-heal-tag"
    else:
        return ""
    return (f'<g class="{cls}" data-seat="{owner}"><rect x="{x - 2}" y="{y + SLOT_H + 1}" width="{SLOT_W + 4}" '
            f'height="{TAG_H}" rx="3" fill="{fill}"/>'
            f'{_fit_txt(x + SLOT_W / 2, y + SLOT_H + 11, words, 9.5, SLOT_W, "600", "middle", "#fff")}</g>')


def _lord(state, y: float, lang: str) -> tuple[str, float]:
    lord = state.lord
    name = i18n.lord_name(lord, lang)
    other = t("other_name", lang, name=lord.name_en if lang == "zh" else lord.name_zh)  # labelled bilingual
    text = i18n.lord_text(lord, lang)
    lines = wrap(text, ROOM_W - 24, 11.5)
    if not state.effects_on:
        lines = wrap(i18n.t("word.effects_off", lang), ROOM_W - 24, 11.5)
    heal = " ".join(f"{s}:${state.heal_cost(s)}" for s in range(1, 6))
    h = 44 + 15 * len(lines) + 4
    card = rule_cards.lord_card(lord, lang)
    more = " ".join(f"{rid}: {text}" for rid, text in card.rulings)
    label = escape(f"{t('lord', lang)}: {name}. {' '.join(lines)} {more}".strip())
    out = [f'<g class="dg-lord" data-lord="{escape(lord.id)}" role="img" aria-label="{label}"><title>{label}</title>'
           f'<rect x="1" y="{y}" width="{ROOM_W - 2}" height="{h}" rx="7" fill="#2e2440" stroke="#1b1526"/>',
           _txt(12, y + 18, f"{t('lord', lang)}: {name}", 13, "bold", fill="#ffe9a8"),
           _txt(ROOM_W - 12, y + 18, other, 11, "normal", "end", "#d8cce8")]
    for k, line in enumerate(lines):
        out.append(_txt(12, y + 35 + 15 * k, line, 11.5, fill="#fff", cls="dg-lord-text"))
    out.append(_txt(12, y + h - 8, t("heal", lang, costs=heal), 10.5, fill="#d8cce8", cls="dg-heal"))
    out.append("</g>")
    return "".join(out), h


def _hand_state(state, view, p: int, s: int, in_slots=None) -> str:
    """active / exhausted / placed / unknown: what the viewer may know of a card (``in_slots``:
    ``set(state.slots())`` when the caller has it)."""
    bit = 1 << s
    if state.placed[p] and (p, s) in (state.slots() if in_slots is None else in_slots):
        return "placed"
    active = view.active[p] if view is not None else state.active[p]
    exhausted = view.exhausted[p] if view is not None else state.exhausted[p]
    if active == -1:
        return "unknown"
    if active & bit:
        return "active"
    if exhausted & bit:
        return "exhausted"
    return "placed"


@lru_cache(maxsize=2048)  # pure, as _txt
def _card(x, y, s: int, kind: str, owner: int, lang: str) -> str:
    """One adventurer card of a hand: face up (active), face down (exhausted / unknown) or
    an outline (in the dungeon)."""
    w, h = 34, 36
    word = t(f"card_{kind}", lang, strength=s)
    if kind == "active":
        body = (_swatch(x, y, w, h, owner, 4) + f'<rect x="{x + 6}" y="{y + 7}" width="{w - 12}" height="22" '
                f'rx="3" fill="#fff" fill-opacity=".93"/>' + _txt(x + w / 2, y + 24, s, 16, "bold", "middle"))
    elif kind == "placed":
        body = (f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="4" fill="#fff" stroke="#999" '
                f'stroke-dasharray="3 2"/>' + _txt(x + w / 2, y + 17, s, 13, "normal", "middle", "#888")
                + _txt(x + w / 2, y + 31, "↑", 11, "normal", "middle", "#888"))
    else:  # exhausted (face down, strength known) or unknown (face down, secret)
        shown = s if kind == "exhausted" else "?"
        body = (f'<rect x="{x}" y="{y}" width="{w}" height="{h}" rx="4" fill="url(#dg-p-back)" stroke="#2b2135"/>'
                f'<circle cx="{x + w / 2}" cy="{y + h / 2}" r="9" fill="#fff" fill-opacity=".85"/>'
                + _txt(x + w / 2, y + h / 2 + 4.5, shown, 12, "bold", "middle", "#2b2135"))
    return (f'<g class="dg-card dg-card-{kind}" data-strength="{s if kind != "unknown" else ""}" '
            f'aria-label="{escape(word)}"><title>{escape(word)}</title>{body}</g>')


def _player(state, view, p: int, y: float, h: float, lang: str, viewer, winners,
            targets: Mapping[str, Target], frame: ResolutionFrame | None = None) -> str:
    x = PLAYER_X
    current = state.phase != OVER and p == state.current and frame is None
    gold = state.gold[p] if frame is None else frame.gold[p]  # while resolving: after the steps shown
    name = state.names[p]
    head = t("seat", lang, seat=p + 1, name=name)
    if viewer == p:
        head += " " + t("you", lang)
    out = [f'<g class="dg-player{" dg-current" if current else ""}" data-seat="{p}" data-gold="{gold}">'
           f'<rect x="{x}" y="{y}" width="{PLAYER_W - 2}" height="{h - 6}" rx="7" '
           f'fill="{"#fff8d8" if current else "#fafafa"}" stroke="{"#000" if current else "#bbb"}" '
           f'stroke-width="{3 if current else 1}"/>',
           _swatch(x + 8, y + 7, 18, 18, p, 3),
           # the name ends before the gold (and before a resolution step's +$/−$ badge): squeezed if longer
           _fit_txt(x + 32, y + 21, head, 12.5,
                    (PLAYER_W - 104 if frame is not None and frame.delta[p] else PLAYER_W - 60) - 32, "bold"),
           _txt(x + PLAYER_W - 12, y + 23, f"${gold}", 17, "bold", "end", cls="dg-gold")]
    if frame is not None and frame.delta[p]:  # the gold this step moved to (or from) the seat
        d = frame.delta[p]
        out.append(f'<g class="dg-gold-delta" data-delta="{d}"><rect x="{x + PLAYER_W - 100}" y="{y + 9}" '
                   f'width="40" height="17" rx="8" fill="{"#00704a" if d > 0 else "#b0351e"}"/>'
                   + _txt(x + PLAYER_W - 80, y + 22, f"{'+' if d > 0 else '−'}${abs(d)}", 11.5, "bold", "middle",
                          "#fff") + "</g>")
    marks = []
    if p == state.start:
        marks.append(t("start", lang))
    if state.team is not None:
        marks.append(i18n.t("board.teams", lang, team=state.team[p] + 1))
    if current:
        marks.append(t("moving", lang))
    if p in winners:
        marks.append(t("winner", lang))
    if marks:
        out.append(_txt(x + 8, y + h - 11, " · ".join(marks), 10.5, "600", "start", "#5a4a2a",
                        cls="dg-player-marks"))
    for s in range(1, 6):  # the seat to move: its cards (and the exhaust button) are cells a page may redraw
        card = _hand_card(state, view, p, s, y, lang, targets.get(f"hand-{s}") if current else None)
        out.append(_cell(f"hand-{s}", card) if current else card)
    if current:
        out.append(_cell("exhaust", _exhaust(targets.get("exhaust"), y, h)))
    out.append("</g>")
    return "".join(out)


def _cell(cell: str, inner: str) -> str:
    """A part of the board a page may redraw alone (``data-cell``): a hand card, a slot, the
    exhaust button. :func:`board_cells` draws the same parts for other targets, so that a page
    can show the slots an adventurer it picks may go to without asking the server."""
    return f'<g class="dg-cell" data-cell="{cell}">{inner}</g>'


def _hand_card(state, view, p: int, s: int, y: float, lang: str, target: Target | None) -> str:
    cx, cy = PLAYER_X + 8 + (s - 1) * 39, y + 27
    card = _card(cx, cy, s, _hand_state(state, view, p, s), p, lang)
    if target is None:
        return card
    ring = (f'<rect class="dg-hit" x="{cx - 3}" y="{cy - 3}" width="40" height="42" rx="6" '
            f'fill="none" stroke="{"#000" if target.pressed else ("#0072B2" if target.enabled else "none")}" '
            f'stroke-width="{3.5 if target.pressed else 2}"/>')
    return _button(target, ring + card, "dg-hand-target")


def _exhaust(go: Target | None, y: float, h: float) -> str:
    if go is None:
        return ""
    x = PLAYER_X
    return _button(go, f'<rect x="{x + 8}" y="{y + h - 6 - GO_H - 2}" width="{PLAYER_W - 18}" '
                       f'height="{GO_H}" rx="5" fill="{"#009E73" if go.enabled else "#bbb"}"/>'
                       + _txt(x + PLAYER_W / 2, y + h - 8 - GO_H / 2 + 4.5, go.label, 12.5, "bold", "middle",
                              "#fff"),
                   "dg-exhaust-target")




def board_cells(state, lang: str, viewer: int, targets: Mapping[str, Target],
                hand: Sequence[int] = (1, 2, 3, 4, 5), view=None, memo: dict | None = None,
                kept: dict | None = None) -> dict[str, str]:
    """The parts of ``viewer``'s board that ``targets`` change (its ``hand`` cards, every slot,
    the exhaust button), drawn as :func:`board_svg` draws them with those targets, by ``data-cell``
    id (uid ``dg``: the page's board replaces the pattern prefix as :func:`board_svg` does).
    ``view``: ``state.known_hands(viewer)`` when the caller has it already; ``memo``: a dict shared by
    the calls for one state and viewer (a seat's picks, issue 37): a cell is drawn once for each
    target it has (most slots are the same for every adventurer picked). ``kept``: a
    :class:`Kept` of the table's (issue 37): a slot's cell is kept from one version to the next by
    what it shows (its adventurer, the seats' names, the language and its target: the target's
    words hold the fees that its cost tag shows)."""
    view = state.known_hands(viewer) if view is None else view
    memo = {} if memo is None else memo
    cells = {}

    def cell(key: str, target: Target | None, draw) -> str:
        if (key, target) not in memo:
            memo[key, target] = draw()
        return memo[key, target]

    if state.phase != OVER and state.current == viewer:
        y = TOP + viewer * PLAYER_H
        for s in hand:
            go = targets.get(f"hand-{s}")
            cells[f"hand-{s}"] = cell(f"hand-{s}", go, lambda: _hand_card(state, view, viewer, s, y, lang, go))
        go = targets.get("exhaust")
        cells["exhaust"] = cell("exhaust", go, lambda: _exhaust(go, y, PLAYER_H))
    if any(k.startswith("slot-") for k in targets):
        for i in range(len(state.rooms)):
            for x_slot in (0, 1):
                sx = SLOT_X + x_slot * (SLOT_W + 8)
                key = f"slot-{i + 1}-{x_slot}"
                go = targets.get(key)
                content = ("cell", key, go, state.slot(i, x_slot), tuple(state.names), lang)
                if kept is not None and (found := kept.get(content)) is not None:
                    cells[key] = found
                    continue
                cells[key] = cell(key, go, lambda: _slot(state, 2 * i + x_slot, sx, TOP + i * ROOM_H + 5, SLOT_W,
                                                         SLOT_H, lang, go))
                if kept is not None:
                    kept[content] = cells[key]
    return cells


_CSS = (Path(__file__).with_name("board_svg.css").read_text(encoding="utf-8").replace("\n", ""))


class Kept(dict):
    """The parts of a table's boards kept from one version to the next (issue 37), by a key that
    names everything the part's drawing reads (:func:`_content_keys`): a move changes a room or
    two and two or three seats' panels, and the rest is drawn as it was. It holds two versions:
    this one's parts, and the last one's until they are asked for again (:meth:`next`)."""

    def __init__(self):
        super().__init__()
        self.before: dict = {}

    def __missing__(self, key):
        value = dict.__getitem__(self.before, key) if key in self.before else None
        if value is None:
            raise KeyError(key)
        self[key] = value
        return value

    def get(self, key, default=None):
        """This version's part for ``key``, else the last version's (kept for this one), else ``default``."""
        try:
            return self[key]
        except KeyError:
            return default

    def next(self) -> "Kept":
        """The next version's: this version's parts to reuse, the older ones let go."""
        new = Kept()
        new.before, self.before = dict(self), {}
        return new


def _once(memo, key: tuple, draw) -> str:
    """What ``draw()`` draws, its money made text (:func:`dollars_as_text`, issue 40), or what it
    drew before for ``key`` in ``memo`` (a dict or :class:`Kept`; None: no memo)."""
    if memo is None:
        return dollars_as_text(draw(), in_svg=True)
    try:
        return memo[key]
    except KeyError:
        memo[key] = drawn = dollars_as_text(draw(), in_svg=True)
        return drawn


def _once_sized(memo, key: tuple, draw, parts: list[str]) -> float:
    """:func:`_once` for a part drawn with its height (the lord's card): the part goes on
    ``parts``, its height is returned."""
    try:
        if memo is None:
            raise KeyError(key)
        svg, height = memo[key]
    except KeyError:
        svg, height = draw()
        svg = dollars_as_text(svg, in_svg=True)
        if memo is not None:
            memo[key] = (svg, height)
    parts.append(svg)
    return height


def _part_keys(state, lang: str, log, viewer, targets: Mapping[str, Target], frame: ResolutionFrame | None):
    """The memo keys of the board's parts at a step of a round shown resolving (see
    :func:`board_svg`'s ``memo``): each names all that part's drawing depends on beyond the
    state, language, log and step the memo is shared for — a room its slots' targets, a seat
    whether it is the viewer and what the viewer may know of its hand (:meth:`State.view`) — so a
    part is shared only when it is drawn the same."""
    base = (id(state), lang, len(log), state.current, state.phase, frame and (frame.round, frame.step))
    view = state.known_hands(viewer) if viewer is not None else None  # what _hand_state reads of State.view

    def room(i: int) -> tuple:
        return (*base, "room", i, targets.get(f"slot-{i + 1}-0"), targets.get(f"slot-{i + 1}-1"))

    def player(p: int) -> tuple:
        known = view if view is not None else state  # what _hand_state reads of the seat's hand
        hand = (known.active[p], known.exhausted[p])
        mine = tuple(targets.get(k) for k in (*(f"hand-{s}" for s in range(1, 6)), "exhaust")) if p == state.current else ()
        return (*base, "player", p, viewer == p, hand, mine)

    return (*base, "head"), (*base, "lord"), view, room, player


def _result_key(res) -> tuple | None:
    if res is None:
        return None
    return (res.room, res.status, res.defence, res.treasure, tuple(sorted((res.shares or {}).items())),
            res.to_bank, res.total, res.effective_defence, res.effective_treasure)


def _content_keys(state, lang: str, viewer, targets: Mapping[str, Target], results, winners):
    """The keys of the board's parts outside a round shown resolving (:class:`Kept`): each holds
    the values its drawing reads — the title and track the round, phase, seat to move and turn;
    a room its card, lock, slots, the lord's change to it, its result this round and its slots'
    targets; the lord's card the lord and the heal costs; a seat's panel its gold, marks and what
    the viewer may know of each card of its hand (:func:`_hand_state`) — so a part drawn at an
    earlier version is reused only when it would be drawn the same."""
    names = tuple(state.names)
    view = state.known_hands(viewer) if viewer is not None else None  # what _hand_state reads of State.view
    over = state.phase == OVER
    head = ("head", lang, state.round, state.rounds, state.phase, state.current, names, state.start, state.pos)
    lord = ("lord", lang, state.lord, state.effects_on, tuple(state.heal_cost(s) for s in range(1, 6)),
            len(state.rooms))
    in_slots = set(state.slots())

    def room(i: int) -> tuple:
        card = state.rooms[i]
        info = state.levels[card.level]
        mine = (targets.get(f"slot-{i + 1}-0"), targets.get(f"slot-{i + 1}-1"))
        return ("room", lang, i, card, info.defence, info.treasure, bool(state.locked[i]), state.slot(i, 0),
                state.slot(i, 1), names, _result_key(results[i] if results and i < len(results) else None),
                state.lord_defence_change(i), state.lock_threshold(i), state.lord,
                (state.current, mine) if mine != (None, None) else None)

    def player(p: int) -> tuple:
        current = not over and p == state.current
        hand = tuple(_hand_state(state, view, p, s, in_slots) for s in range(1, 6))
        mine = tuple(targets.get(k) for k in (*(f"hand-{s}" for s in range(1, 6)), "exhaust")) if current else ()
        team = state.team[p] if state.team is not None else None
        return ("player", lang, p, viewer == p, state.gold[p], state.names[p], p == state.start, team, current,
                p in winners, hand, mine)

    return head, lord, view, room, player


def board_svg(state, lang: str | None = None, viewer: int | None = None, log: Sequence[dict] | None = None,
              targets: Mapping[str, Target] | None = None, caption: str = "", uid: str = "dg",
              frame: ResolutionFrame | None = None, memo: dict | None = None) -> str:
    """The board as an SVG string (see the module docstring): :func:`board_svg_pieces` joined.
    ``uid``: the prefix of the pattern ids (several boards on one page need different ones:
    ``url(#id)`` finds the first, and a pattern inside a hidden tab is not drawn)."""
    return _with_uid("".join(board_svg_pieces(state, lang, viewer, log, targets, caption, frame, memo)), uid)


def _with_uid(markup: str, uid: str) -> str:
    return markup if uid == "dg" else markup.replace("dg-p-", f"{uid}-p-")


def board_svg_pieces(state, lang: str | None = None, viewer: int | None = None, log: Sequence[dict] | None = None,
                     targets: Mapping[str, Target] | None = None, caption: str = "",
                     frame: ResolutionFrame | None = None, memo: dict | None = None) -> list[str]:
    """The board as an SVG string in pieces (the root's opening tag, the style and patterns, each
    part, the closing tag): a class table sends a page only the pieces that changed since its
    last message (issue 37; :mod:`~dungeon_guilds.app.tables.pieces`). The pattern ids are
    ``dg-p-…`` (:func:`board_svg`'s ``uid`` changes them). ``viewer``: draw only what that
    seat may know (:meth:`State.view`); ``targets``: the clickable things
    (:func:`dungeon_guilds.board_targets.board_targets`); ``caption``: an accessible title. ``frame``: a step of a round's resolution
    (:func:`dungeon_guilds.drawing.resolving.resolution_frame`), drawn on ``state`` = the
    dispatch's end (:meth:`Game.dispatch_end`): the rooms reached so far revealed, the rest
    face down, the seats' gold after those steps, nothing clickable. ``memo``: a dict shared by
    the boards of one state, language and log drawn for several viewers (a class table's seats
    at one version, issue 37): the parts every viewer sees alike (title, track, lord, a room
    without targets, a seat's hand as others see it) are drawn once; None draws everything."""
    lang = lang or i18n.get_language()
    targets = {} if frame is not None else (targets or {})
    log = state.log if log is None else log
    rnd = rooms_round(state)
    results = resolution(log, rnd) if log and frame is None else None
    winners = set()
    if state.phase == OVER:
        from ..scoring import result

        winners = set(result(state).winners)
    if frame is None:  # parts kept from one version to the next by what they show (Kept)
        memo = memo.get("kept", memo) if memo is not None else None
        head_key, lord_key, view, room_key, player_key = _content_keys(state, lang, viewer, targets, results,
                                                                      winners)
    else:
        if memo is not None:  # the memo keeps the states it has drawn alive: their ids are never reused in it
            memo.setdefault(("alive", id(state)), state)
        head_key, lord_key, view, room_key, player_key = _part_keys(state, lang, log, viewer, targets, frame)
    k = len(state.rooms)
    rh = ROOM_H
    parts = [_once(memo, head_key, lambda: _title(state, lang, frame) + _track(state, lang, frame is not None))]
    for i in range(k):
        res = results[i] if results and i < len(results) else None
        if frame is not None:
            res = frame.results.get(i)
        parts.append(_once(memo, room_key(i), lambda: _room(state, i, TOP + i * rh, rh, lang, res, targets, frame)))
    lord_h = _once_sized(memo, lord_key, lambda: _lord(state, TOP + k * rh + 2, lang), parts)
    ph = PLAYER_H
    for p in range(state.n):
        parts.append(_once(memo, player_key(p), lambda: _player(state, view, p, TOP + p * ph, ph, lang, viewer,
                                                                  winners, targets, frame)))
    height = max(TOP + k * rh + 2 + lord_h, TOP + state.n * ph) + 4
    title = escape(caption or i18n.t("board.title", lang, round=min(state.round + 1, state.rounds),
                                     rounds=state.rounds, phase=i18n.phase_name(state.phase, lang)))
    if frame is not None and not caption:
        title = escape(t("resolving_caption", lang, round=frame.round, rounds=state.rounds, step=frame.step + 1)
                       + ": " + _frame_words(state, frame, lang))
    resolving = f' data-resolving="{frame.round}" data-step="{frame.step}"' if frame is not None else ""
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" class="dg-board-svg" viewBox="0 0 {WIDTH} {height}" '
            f'width="{WIDTH}" height="{height}" font-family="{FONT}" role="group" aria-label="{title}" '
            f'data-phase="{state.phase}" data-round="{min(state.round + 1, state.rounds)}"{resolving}>')
    return [head, _style_and_patterns(), *parts, "</svg>"]  # the parts' money is text already (_once, issue 40)


@lru_cache(maxsize=1)
def _style_and_patterns() -> str:
    return f"<style>{_CSS}</style>{_defs()}"


def board_svg_html(state, lang: str | None = None, viewer: int | None = None, log: Sequence[dict] | None = None,
                   targets: Mapping[str, Target] | None = None, uid: str = "dg",
                   frame: ResolutionFrame | None = None, memo: dict | None = None) -> str:
    """:func:`board_svg` in its root element ``div.dg-board`` (what notebooks and the widget show);
    with a ``frame``, ``data-resolving`` (the round) and ``data-step`` on the root."""
    return _with_uid("".join(board_html_pieces(state, lang, viewer, log, targets, frame, memo)), uid)


def board_html_pieces(state, lang: str | None = None, viewer: int | None = None, log: Sequence[dict] | None = None,
                      targets: Mapping[str, Target] | None = None, frame: ResolutionFrame | None = None,
                      memo: dict | None = None) -> list[str]:
    """:func:`board_svg_html` in pieces (:func:`board_svg_pieces`, inside the root's tags)."""
    lang = lang or i18n.get_language()
    html_lang = "zh-Hant" if lang == "zh" else lang
    round_no = min(state.round + 1, state.rounds)
    current = state.current if state.phase != OVER and frame is None else ""
    resolving = f' data-resolving="{frame.round}" data-step="{frame.step}"' if frame is not None else ""
    return [f'<div class="dg-board" lang="{html_lang}" data-phase="{state.phase}" data-round="{round_no}" '
            f'data-current="{current}" data-actions="{state.actions_taken}"{resolving}>',
            *board_svg_pieces(state, lang, viewer, log, targets, frame=frame, memo=memo), "</div>"]


__all__ = ["board_html_pieces", "board_svg", "board_svg_html", "board_svg_pieces", "wrap"]
