"""User-visible strings, per language, kept apart from the code (issue 5).

Every label, message and card name the figures, widgets and the notebook display show comes
from ``dungeon_guilds/strings/<lang>.toml`` (loaded with :mod:`tomllib` through
:mod:`importlib.resources`). ``en`` is the reference table; another language may leave keys out
and falls back to English for them. To add a language, drop ``strings/xx.toml`` with a
``[meta] name = "..."`` entry: :func:`languages` finds it.

Lord names and effect texts come from the lord cards themselves (:mod:`dungeon_guilds.lords`,
which carries the rulebook's English and Chinese names); other languages may override them in
their table under ``[lord.<id>]``.

Engine refusals are values (:class:`~dungeon_guilds.errors.IllegalAction`: a ``code``, the
rule, ``params``); :func:`refusal_text` words one from the ``[refusal]`` templates of
``strings/<lang>/refusals.toml``. The English sentence of a refusal *is* its English template,
so no language ever parses English back.
"""

from __future__ import annotations

import tomllib
from functools import lru_cache
from importlib import resources
from typing import Any, Iterable, Mapping, Sequence

from .actions import BUMP, EXHAUST, PLACE, SWAP, Action
from .codes import CODES, REFUSALS
from .events import KINDS
from .lords import LORDS_BY_ID, Lord
from .payout import NPC

FALLBACK = "en"
_default = ["en"]


# ---------------------------------------------------------------------- loading
def _flatten(table: Mapping[str, Any], prefix: str = "") -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in table.items():
        name = f"{prefix}{key}"
        if isinstance(value, Mapping):
            out.update(_flatten(value, name + "."))
        else:
            out[name] = value
    return out


def _merge(into: dict[str, Any], table: Mapping[str, Any], where: str) -> None:
    """Deep-merge ``table`` into ``into``; a key given twice is an error naming the file."""
    for key, value in table.items():
        if isinstance(value, Mapping) and isinstance(into.get(key), dict):
            _merge(into[key], value, where)
        elif key in into and not (isinstance(value, list) and isinstance(into[key], list)):
            raise ValueError(f"strings: key {key!r} in {where} is defined twice")
        elif isinstance(value, list) and isinstance(into.get(key), list):
            into[key] = into[key] + value
        else:
            into[key] = dict(value) if isinstance(value, Mapping) else value


@lru_cache(maxsize=None)
def _table(lang: str) -> dict[str, Any]:
    """``strings/<lang>.toml`` merged with every ``strings/<lang>/*.toml`` (one file a feature,
    so features keep their texts apart)."""
    root = resources.files("dungeon_guilds").joinpath("strings")
    try:
        text = root.joinpath(f"{lang}.toml").read_text("utf-8")
    except FileNotFoundError:
        raise ValueError(f"no strings for language {lang!r} (have: {', '.join(languages())})") from None
    table = tomllib.loads(text)
    folder = root.joinpath(lang)
    if folder.is_dir():
        for part in sorted(folder.iterdir(), key=lambda e: e.name):
            if part.name.endswith(".toml"):
                _merge(table, tomllib.loads(part.read_text("utf-8")), f"strings/{lang}/{part.name}")
    return table


@lru_cache(maxsize=None)
def strings(lang: str) -> dict[str, Any]:
    """The flat ``{"section.key": value}`` table of a language (English keys filled in)."""
    flat = _flatten(_table(FALLBACK))
    if lang != FALLBACK:
        flat.update(_flatten(_table(lang)))
    return flat


def languages() -> dict[str, str]:
    """{code: name in its own language} of every language with a strings table."""
    out = {}
    for entry in sorted(resources.files("dungeon_guilds").joinpath("strings").iterdir(),
                        key=lambda e: e.name):
        if entry.name.endswith(".toml"):
            code = entry.name[:-5]
            out[code] = _table(code).get("meta", {}).get("name", code)
    # English first, then the others in file order
    return dict(sorted(out.items(), key=lambda kv: (kv[0] != FALLBACK, kv[0])))


def set_language(lang: str) -> None:
    """The default language (used by ``Game._repr_html_`` and by calls that pass no ``lang``)."""
    strings(lang)  # refuse an unknown language now
    _default[0] = lang


def get_language() -> str:
    return _default[0]


def _lang(lang: str | None) -> str:
    return lang or _default[0]


# ---------------------------------------------------------------------- lookups
def t(key: str, lang: str | None = None, **values: Any) -> str:
    """The string ``key`` in ``lang``, formatted with ``values`` (``str.format`` fields).

    A missing key gives the key itself, so a gap shows instead of breaking a widget; the test
    suite checks every key the code uses exists in every table.
    """
    text = strings(_lang(lang)).get(key)
    if text is None:
        return key
    if values:
        try:
            return str(text).format(**values)
        except (KeyError, IndexError, ValueError):
            return str(text)
    return str(text)


def has(key: str, lang: str | None = None) -> bool:
    return key in strings(_lang(lang))


def lord_of(lord: Lord | str) -> Lord | None:
    if isinstance(lord, Lord):
        return lord
    return LORDS_BY_ID.get(lord)


def _lord_words(lord: Lord | str, lang: str | None, field: str) -> str:
    """A lord's ``name`` or ``text``: a table's ``lord.<id>.<field>`` if given, else the card's
    own English / Chinese words (the rulebook's)."""
    lang = _lang(lang)
    obj = lord_of(lord)
    lord_id = obj.id if obj else str(lord)
    override = strings(lang).get(f"lord.{lord_id}.{field}") if lang != FALLBACK else None
    if override:
        return str(override)
    if obj is None:
        return lord_id if field == "name" else ""
    return getattr(obj, field)("zh" if lang == "zh" else "en")


def lord_name(lord: Lord | str, lang: str | None = None) -> str:
    """A lord's name in ``lang``."""
    return _lord_words(lord, lang, "name")


def lord_text(lord: Lord | str, lang: str | None = None) -> str:
    """A lord's effect text in ``lang``."""
    return _lord_words(lord, lang, "text")


# ---------------------------------------------------------------------- refusals and errors
def refusal_text(err: Any, lang: str | None = None) -> str:
    """A refusal in words: the ``refusal.<code>`` template of ``lang`` filled with the error's
    ``params``, its ``rule``, and derived values: ``lord`` (a lord id) becomes the lord's name in
    the language, ``seat`` is ``player`` counted from 1 and a list is joined in the language
    (:func:`join_list`). ``err`` is an
    :class:`~dungeon_guilds.errors.IllegalAction`, or another error with ``code`` and ``params``
    (see ``errors.CODES``)."""
    values = {k: join_list(v, lang) if isinstance(v, (list, tuple)) else v for k, v in err.params.items()}
    values.setdefault("rule", getattr(err, "rule", ""))
    if "lord" in values:
        values["lord"] = lord_name(values["lord"], lang)
    if isinstance(values.get("player"), int):
        values["seat"] = values["player"] + 1
    template = strings(_lang(lang)).get(f"refusal.{err.code}")
    if template is None:
        raise KeyError(f"no text for refusal {err.code!r} in strings/{FALLBACK}/refusals.toml")
    return str(template).format(**values)


def _has_code(exc: BaseException) -> bool:
    """An error that carries one of our codes (``errors.CODES``) and its params."""
    return getattr(exc, "code", None) in CODES and isinstance(getattr(exc, "params", None), dict)


def illegal_text(err: Any, lang: str | None = None) -> str:
    """A refusal framed for display: ``Not allowed: …`` / ``不合法：…``. ``err`` is an
    :class:`~dungeon_guilds.errors.IllegalAction` (or text already in the language)."""
    reason = refusal_text(err, lang) if _has_code(err) else str(err)
    return t("error.illegal", lang, reason=reason)


class Refusal(ValueError):
    """A refusal worded by a strings key (``key`` with ``values``; a value that is itself a
    strings key is given as ``keys={name: key}``): shown in the language of the moment, and
    again in the new one when the language changes. ``str()`` is the English sentence."""

    def __init__(self, key: str, keys: Mapping[str, str] | None = None, **values: Any):
        self.key, self.keys, self.values = key, dict(keys or {}), values
        super().__init__(self.text(FALLBACK))

    def text(self, lang: str | None = None) -> str:
        words = {name: t(k, lang) for name, k in self.keys.items()}
        return t(self.key, lang, **self.values, **words)


def error_text(exc: BaseException, lang: str | None = None) -> str:
    """A friendly message for any error a widget callback meets (never a traceback).

    Refusals of a move are framed as not allowed; the library's other ``ValueError``s (bad move
    text, bad options, bad deck) are shown as their message, in the language when they carry a
    ``code``; anything else as a short 'something went wrong'.
    """
    if isinstance(exc, Refusal):
        return t("error.invalid", lang, message=exc.text(lang))
    if isinstance(exc, ValueError) and _has_code(exc):
        if getattr(exc, "code") in REFUSALS:
            return illegal_text(exc, lang)
        return t("error.invalid", lang, message=refusal_text(exc, lang))
    if isinstance(exc, ValueError):
        return t("error.invalid", lang, message=str(exc))
    return t("error.unexpected", lang, kind=type(exc).__name__, message=str(exc)[:200])


def pass_reason(code: str, lang: str | None = None) -> str:
    """Why the engine passed a player's turn (a ``passed`` event's ``code``: R4.2, R4.7)."""
    return t(f"pass_reason.{code}", lang)


# ---------------------------------------------------------------------- game words
def phase_name(phase: str, lang: str | None = None) -> str:
    return t(f"phase.{phase}", lang)


def player_name(names: Sequence[str], owner: int, lang: str | None = None) -> str:
    if owner == NPC:
        return t("word.npc", lang)
    if 0 <= owner < len(names):
        return names[owner]
    return "?"


def slot_letter(slot: int | str) -> str:
    return slot if isinstance(slot, str) else "ab"[slot]


def action_text(action: Action, lang: str | None = None, state=None, names: Sequence[str] | None = None) -> str:
    """A move in words (``place strength 3 in room 2``). With ``state``, a bump or swap also
    names the adventurer it replaces (read from the state's slots)."""
    names = names if names is not None else (state.names if state is not None else ())
    kind = action.kind
    if kind == EXHAUST:
        return t("action.exhaust", lang, a=action.strength, b=action.other)
    if kind == PLACE:
        return t("action.place", lang, strength=action.strength, room=action.room)
    slot = slot_letter(action.slot)
    target = ""
    if state is not None and 1 <= action.room <= len(state.rooms):
        owner, strength = state.slot(action.room - 1, action.slot)
        if owner != -1:
            target = t("action.target", lang, owner=player_name(names, owner, lang), strength=strength)
    key = "action.bump" if kind == BUMP else "action.swap" if kind == SWAP else None
    if key is None:
        return str(action)
    return t(key, lang, strength=action.strength, room=action.room, slot=slot, target=target)


def join_list(values: Iterable[Any], lang: str | None = None) -> str:
    """Items of a list inside a sentence: 繁體中文 separates them with 、, English with a comma."""
    return ("、" if _lang(lang) == "zh" else ", ").join(str(v) for v in values)


def _in_play(lord_id: Any, lords: Sequence[Lord]) -> Lord | str:
    """The lord the log names by id: one of the game's ``lords`` (a workshop lord has its own
    names), else the id (a card of the box, named by :func:`lord_name`)."""
    return next((x for x in lords if x.id == lord_id), lord_id if lord_id is not None else "?")


class _Say:
    """The words an event's :data:`~dungeon_guilds.events.KINDS` row asks for, in ``lang``."""

    def __init__(self, names: Sequence[str], lang: str | None, secret_exhaust: bool,
                 lords: Sequence[Lord] = ()) -> None:
        self.names, self.lang, self.secret_exhaust, self.lords = names, lang, secret_exhaust, lords

    def who(self, seat: int) -> str:
        return player_name(self.names, seat, self.lang)

    def list(self, values: Iterable[Any]) -> str:
        return join_list(values, self.lang)

    def lord(self, lord: str) -> str:
        return lord_name(_in_play(lord, self.lords), self.lang)

    def reason(self, code: str) -> str:
        return pass_reason(code, self.lang)

    def share(self, seat: int | None, gold: int) -> str:
        name = t("word.bank", self.lang) if seat is None else self.who(seat)
        return t("word.share", self.lang, name=name, gold=gold)


def event_text(ev: Mapping[str, Any], names: Sequence[str], lang: str | None = None,
               secret_exhaust: bool = False, lords: Sequence[Lord] = ()) -> str:
    """One log event in words: its kind's row of :data:`dungeon_guilds.events.KINDS` picks the
    template ``event.<key>`` and fills it. ``secret_exhaust`` hides which adventurers were
    exhausted at setup (R2.4 is a secret choice) for a player's-eye log; ``lords``: the game's
    lords (``state.lords``), so that a workshop lord is named by its name, not its id."""
    kind = KINDS.get(ev.get("kind", "?"))
    if kind is None:
        return str(ev.get("kind", "?"))
    key, values = kind.words(ev, _Say(names, lang, secret_exhaust, lords))
    return t(f"event.{key}", lang, **values)


__all__ = [
    "FALLBACK", "action_text", "error_text", "event_text", "get_language", "has", "illegal_text",
    "join_list", "languages", "lord_name", "lord_text", "pass_reason", "phase_name", "player_name",
    "refusal_text", "set_language", "strings", "t",
]
