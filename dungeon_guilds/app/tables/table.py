"""One class table: its seats (a name, a per-seat token, a person or a bot), the engine's game
and the setup choice every seat makes at once and in secret (R2.4).

Nothing here decides a rule: a move is the engine's text (``place 3 1``), parsed and judged by
:class:`~dungeon_guilds.Game`; a refused move changes nothing and its refusal is returned as a
value. The table adds only what a table needs:

* **Seats.** The opener takes seat 1 and gets a token; classmates join a free seat by the code
  and a name and get their own token. A token is kept by its browser (``localStorage``) and
  proves the seat on every connection; the table stores only its SHA-256 digest.
* **The secret setup choice (R2.4).** Every seat chooses its two exhausted adventurers at the
  same time; the table model's :class:`~dungeon_guilds.table_model.SecretSetup` (``secret``; read as
  ``pending``) keeps each seat's choice to itself and hands all of them to the engine, in the
  engine's order, when the last seat has chosen: no seat's page can learn another seat's choice
  before round 1 is played.
* **Bots** (``analysis.bots``) play the seats the opener fills, each at the level the opener
  picked for it (:data:`BOT_LEVELS`: Play's levels beginner / intermediate / strong, then its
  named bots; saved with the seat), and the turn of a person who has been away longer than the
  lobby's ``away_s`` (:data:`AWAY_BOT`; they take their seat back by reconnecting). A bot is
  asked on a copy of the engine's state, as in Play, and reads only ``state.view(seat)`` and the
  engine's answers on copies (``analysis/bots/base.py``); the others' pending setup choices are
  held by the table, not in that state. With ``think`` (the server's), a level of
  :data:`SLOW_LEVELS` is not asked here: :meth:`Table.bot_job` hands its question out to be
  answered off the server's event loop and :meth:`Table.bot_answer` takes the move back.
* **A round's resolution, on the board (issue 24).** After the move that ends a round's
  dispatch, the table shows that round resolving (``showing``: every page steps through it room
  by room, each at its own pace) and the next round waits: no move is taken, no bot moves, until
  every person's seat with a page open has pressed *Continue* (``ready``), or
  :data:`RESOLUTION_S` seconds have passed (so one absent-minded page cannot stall a class).
  The table model's :class:`~dungeon_guilds.table_model.Resolution` (``shown``) holds it, as it
  does for Learn and Play (``widgets/table.py``); which seat a bot decides for is the model's
  :func:`~dungeon_guilds.table_model.bot_turn`.
"""

from __future__ import annotations

import hashlib
import os
import secrets
import unicodedata
from dataclasses import dataclass, replace
from typing import Any

from ... import Game, Rules
from ...actions import Action
from ...analysis.bots import BOTS, LEVELS
from ...cards import Deck, parse_deck_text, reference_deck
from ...game import rng
from ...lords import Lord, lord_from_dict, lord_pool
from ...record import from_record
from ...record_write import to_record
from ...table_model import BotTurn, Resolution, SecretSetup, Session, bot_move, make_bot
from ...table_model.seats import AWAY_BOT, BOT, BOT_KIND, HUMAN, OPEN, Seat  # the model's seats (re-exported)
from .refusal import TableRefusal

# The opponents a bot seat may be: Play's levels, then Play's named bots (the catalogue of
# analysis.bots, worded by Play's strings bot.<name>); not "mcts" (the strong level is that search
# at 200 iterations) nor the first-legal test bot.
BOT_LEVELS = tuple(LEVELS) + tuple(n for n in BOTS if n not in LEVELS and n != "mcts")
SLOW_LEVELS = frozenset({"strong", "judge"})  # searches: the server thinks for them off its event loop
BOT_NAMES = ("Ann", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal", "Ivy", "Jo", "Kai", "Lu")
NAME_MAX = 20
MIN_SEATS, MAX_SEATS = 3, 6
RESOLUTION_ENV = "DUNGEON_GUILDS_TABLE_RESOLUTION"


def _resolution_seconds(default: float = 60.0) -> float:
    """How long at most the next round waits for every seat's Continue (``DUNGEON_GUILDS_TABLE_RESOLUTION``,
    seconds; a value that is not a positive number is refused at start)."""
    raw = os.environ.get(RESOLUTION_ENV, "").strip()
    try:
        value = float(raw) if raw else default
    except ValueError:
        raise SystemExit(f"{RESOLUTION_ENV}={raw!r}: expected a number of seconds") from None
    if value <= 0:
        raise SystemExit(f"{RESOLUTION_ENV}={raw!r}: expected a positive number of seconds")
    return value


RESOLUTION_S = _resolution_seconds()  # at most this long the next round waits for every seat's Continue


def digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


def bot_level(level: Any) -> str:
    """A bot seat's level as a page sends it: one of :data:`BOT_LEVELS`, else a refusal."""
    if not isinstance(level, str):
        raise TableRefusal("bad_field", field="levels")
    if level not in BOT_LEVELS:
        raise TableRefusal("bot_level_bad", level=level[:20])
    return level


def think(level: str, seed: str, state, seat: int) -> Action:
    """The move the bot ``level`` (seeded ``seed``) makes for ``seat`` in ``state`` (a copy):
    a plain function of picklable values, so that the server can run it in another process
    (the table model's :func:`~dungeon_guilds.table_model.bot_move`, as in Learn and Play)."""
    return bot_move(make_bot(level, seed=seed), state, seat)


@dataclass
class BotJob:
    """One bot decision: what :func:`think` is asked (on a copy of the state), and where."""

    seat: int
    level: str
    seed: str
    state: Any
    setup: bool
    ply: int

    def think(self) -> Action:
        return think(self.level, self.seed, self.state, self.seat)


def clean_name(name: Any) -> str:
    """A seat name as people type it: NFKC-normalised (a full-width "Ａｎｎ" is "Ann"), trimmed,
    one line, at most :data:`NAME_MAX` characters; a control or format character (NUL, a
    zero-width space, a right-to-left override: Unicode categories C*) or a colon is refused, and
    a name needs a visible letter or digit (Unicode L* or N*: not combining marks alone; issue 51)."""
    if not isinstance(name, str):
        raise TableRefusal("name_missing")
    if len(name) > 4 * NAME_MAX:
        raise TableRefusal("name_bad", most=NAME_MAX)
    text = unicodedata.normalize("NFKC", name)
    text = " ".join(text.split())
    if not text:
        raise TableRefusal("name_missing")
    if any(unicodedata.category(ch).startswith("C") for ch in text):
        raise TableRefusal("name_hidden")
    if len(text) > NAME_MAX or ":" in text:
        raise TableRefusal("name_bad", most=NAME_MAX)
    if not any(unicodedata.category(ch)[0] in "LN" for ch in text):  # combining marks or punctuation only
        raise TableRefusal("name_no_letter")
    return text


def _seat(saved: dict[str, Any]) -> Seat:
    """A saved seat (a bot seat saved before levels were chosen is the greedy bot it was)."""
    bot = (saved.get("bot") or BOT_KIND) if saved["kind"] == BOT else ""
    return Seat(saved["kind"], saved["name"], saved["token_hash"], bot=bot_level(bot) if bot else "")


class Table:
    """A class table: its code, rules, deck, seed and the workshop's lord, the times it was
    opened and last used, and its :class:`~dungeon_guilds.table_model.Session` (``session``: the
    engine's game, the seats, the secret setup choices, the round shown resolving), read under
    the names the table's readers use (render, the server, saved files). ``version`` counts
    every change (a move names the version it was made on)."""

    def __init__(self, code: str, seats: list[Seat], rules: Rules, deck: Deck, seed: int, created: float,
                 last_active: float, game: Game | None = None, secret: SecretSetup | None = None, version: int = 0,
                 lord: Lord | None = None, think_off_loop: bool = False, shown: Resolution | None = None):
        self.code, self.rules, self.deck, self.seed = code, rules, deck, seed
        self.created, self.last_active, self.version, self.lord = created, last_active, version, lord
        self.think_off_loop = think_off_loop  # the server thinks for SLOW_LEVELS bots off its loop (not saved)
        self.session = Session(seats, game, secret or SecretSetup(), shown or Resolution())
        self.log_lines: dict = {}  # the round log worded once (render; not saved)
        self.setup_from = version if game is not None else 0  # the version the game began at (saved)

    def __repr__(self) -> str:
        return f"Table({self.code!r}, version={self.version}, seats={self.names()!r})"

    # the session's parts; a setter gives this table its own session (a table copied for a test
    # shares nothing it changes)
    def _own(self, **parts: Any) -> None:
        self.session = replace(self.session, **parts)

    @property
    def seats(self) -> list[Seat]:
        return self.session.seats

    @seats.setter
    def seats(self, value: list[Seat]) -> None:
        self._own(seats=value)

    @property
    def game(self) -> Game | None:
        return self.session.game

    @game.setter
    def game(self, value: Game | None) -> None:
        self._own(game=value)

    @property
    def secret(self) -> SecretSetup:
        return self.session.secret

    @property
    def shown(self) -> Resolution:
        return self.session.shown

    @shown.setter
    def shown(self, value: Resolution) -> None:
        self._own(shown=value)

    @property
    def pending(self) -> dict[int, tuple[int, int]]:
        return self.secret.pending

    @pending.setter
    def pending(self, value: dict[int, tuple[int, int]]) -> None:
        self._own(secret=SecretSetup(dict(value)))

    @property
    def showing(self) -> int | None:
        return self.shown.round

    @showing.setter
    def showing(self, value: int | None) -> None:
        self.shown = replace(self.shown, round=value, end=None)

    @property
    def ready(self) -> set[int]:
        return self.shown.ready

    @ready.setter
    def ready(self, value: set[int]) -> None:
        self.shown = replace(self.shown, ready=set(value))

    @property
    def showing_since(self) -> float:
        return self.shown.since

    @showing_since.setter
    def showing_since(self, value: float) -> None:
        self.shown = replace(self.shown, since=value)

    @property
    def resumed(self) -> bool:
        return self.shown.resumed

    @resumed.setter
    def resumed(self, value: bool) -> None:
        self.shown = replace(self.shown, resumed=value)

    # ------------------------------------------------------------------ opening and seats
    @classmethod
    def open(cls, code: str, seats: int, name: str, rules: Rules, deck: Deck | None, now: float,
             seed: int | None = None, lord: Lord | None = None) -> tuple["Table", str]:
        """A new table with ``seats`` seats; the opener ``name`` takes seat 1 (``lord``: a lord
        from the workshop, in play in round 1). Returns the table and the opener's token."""
        if not isinstance(seats, int) or isinstance(seats, bool) or not MIN_SEATS <= seats <= MAX_SEATS:
            raise TableRefusal("seats_bad", low=MIN_SEATS, high=MAX_SEATS)
        try:
            rules.check_players(seats)
        except ValueError as err:
            raise TableRefusal("rules_bad", reason=str(err)) from None
        table = cls(code, [Seat() for _ in range(seats)], rules, deck or reference_deck(),
                    seed if seed is not None else secrets.randbelow(10**9), now, now, lord=lord)
        token = table._take(0, clean_name(name))
        return table, token

    def _take(self, seat: int, name: str) -> str:
        token = secrets.token_urlsafe(24)
        self.seats[seat] = Seat(HUMAN, name, digest(token))
        self.version += 1
        self._maybe_start()
        return token

    def names(self) -> list[str]:
        return [s.name for s in self.seats]

    def join(self, name: Any, now: float) -> tuple[int, str]:
        """A classmate takes the first free seat; returns (seat, token)."""
        name = clean_name(name)
        if name.casefold() in {n.casefold() for n in self.names()}:
            raise TableRefusal("name_taken", name=name)
        free = [i for i, s in enumerate(self.seats) if s.kind == OPEN]
        if not free:
            raise TableRefusal("table_full")
        self.last_active = now
        return free[0], self._take(free[0], name)

    def seat_of(self, token: Any) -> int | None:
        """The seat a token proves (None for a token of no seat here)."""
        if not isinstance(token, str) or not token:
            return None
        h = digest(token)
        for i, s in enumerate(self.seats):
            if s.kind == HUMAN and secrets.compare_digest(s.token_hash, h):
                return i
        return None

    def fill_with_bots(self, seat: int, now: float, levels: dict[int, str] | None = None) -> None:
        """The opener (seat 1) fills every free seat with a bot, seat ``i`` at ``levels[i]``
        (seats from 0; :data:`BOT_KIND` when not given; a level for a seat a classmate took
        meanwhile is dropped); the game starts. An unknown level is refused, nothing changed."""
        if seat != 0:
            raise TableRefusal("opener_only")
        if self.game is not None:
            raise TableRefusal("started")
        levels = dict(levels or {})
        for i, level in levels.items():
            if not isinstance(i, int) or isinstance(i, bool) or not 0 < i < len(self.seats):
                raise TableRefusal("bad_field", field="levels")
            bot_level(level)
        taken = set(self.names())
        spare = iter(n for n in BOT_NAMES if n not in taken)
        for i, s in enumerate(self.seats):
            if s.kind == OPEN:
                self.seats[i] = Seat(BOT, next(spare), bot=levels.get(i, BOT_KIND))
        self.version += 1
        self.last_active = now
        self._maybe_start()
        self.play_bots(now, away_s=None)

    def _maybe_start(self) -> None:
        if self.game is None and all(s.kind != OPEN for s in self.seats):
            lords = None
            if self.lord is not None:  # the workshop's lord in round 1, the others drawn by the seed (R2.2)
                pool = [x for x in lord_pool(self.rules.lords) if x.id != self.lord.id]
                lords = [self.lord] + rng(self.seed, "table-lords").sample(pool, len(self.seats) - 1)
            self.game = Game(self.names(), seed=self.seed, rules=self.rules, deck=self.deck, lords=lords)
            self.setup_from = self.version

    # ------------------------------------------------------------------ moves
    @property
    def is_over(self) -> bool:
        return self.session.is_over

    @property
    def in_setup(self) -> bool:
        return self.session.in_setup

    def act(self, seat: int, text: Any, version: Any, now: float, away_s: float | None = None) -> None:
        """Seat ``seat`` takes the move ``text`` (the engine's move text), made on the table as
        it was at ``version``. A refusal (:class:`TableRefusal`, the engine's
        :class:`IllegalAction`, or :class:`ActionSyntaxError` for text that is not a move) is
        raised and nothing changes."""
        if self.game is None:
            raise TableRefusal("not_started")
        if not isinstance(text, str) or len(text) > 40:
            raise TableRefusal("bad_message")
        if version != self.version and not self._secret_choice_current(seat, version):
            raise TableRefusal("stale")
        if self.showing is not None and not self._resolution_over(now):
            raise TableRefusal("resolving")
        who, action = self.game.parse(text)  # ActionSyntaxError for text that is not a move
        if who is not None and who != seat:
            raise TableRefusal("not_your_seat")
        if self.in_setup and seat in self.pending:
            raise TableRefusal("already_chosen")
        self.session.move(seat, action, now)  # R2.4 at the setup: held in secret until all have chosen
        self.version += 1
        self.last_active = now
        self.play_bots(now, away_s)

    def _secret_choice_current(self, seat: int, version: Any) -> bool:
        """Whether a setup choice made on ``version`` still counts (issue 51, item 4): the seats
        choose at once and in secret (R2.4), so no other seat's choice changes what this seat
        chooses from; while this seat has not chosen, every version since the game began is
        current for it (four students pressing at once all count). A seat that has chosen is
        back to the strict check (a replay is ``stale``; on the current version ``already_chosen``)."""
        return (self.in_setup and seat not in self.pending and isinstance(version, int)
                and not isinstance(version, bool) and self.setup_from <= version <= self.version)

    # ------------------------------------------------------------------ a round shown resolving
    def waiting_for(self) -> list[int]:
        """The seats the next round still waits for: people with a page open who have not
        pressed Continue."""
        return self.session.waiting_for()

    def continue_(self, seat: int, now: float, away_s: float | None = None) -> bool:
        """Seat ``seat`` has seen the resolution; the next round starts once nobody is waited
        for. Refused when no round is shown resolving; False (nothing changed) when that seat
        had said so already."""
        if self.showing is None:
            raise TableRefusal("not_resolving")
        if not self.session.step_on(seat):
            return False  # said already: nothing changes, nobody is told again
        self.version += 1
        self.last_active = now
        if self.showing is None:  # nobody waited for any more: the next round
            self.play_bots(now, away_s)
        return True

    def _resolution_over(self, now: float) -> bool:
        """End a resolution shown longer than :data:`RESOLUTION_S` (or waiting for nobody)."""
        return self.session.resolution_over(now, RESOLUTION_S)

    def bot_seat(self, seat: int, now: float, away_s: float | None) -> bool:
        """Whether a bot plays ``seat`` now: a bot's seat, or a person away over ``away_s``."""
        return self.session.bot_seat(seat, now, away_s)

    def level_of(self, seat: int) -> str:
        """The bot that plays ``seat``'s turns: a bot seat's level, or :data:`AWAY_BOT`."""
        return self.seats[seat].level()

    def bot_job(self, now: float, away_s: float | None) -> BotJob | None:
        """The next bot decision due now (None if no bot is to decide): in the setup a bot seat
        still to choose (simultaneous, R2.4: asked as if it were that seat's turn; the order
        does not matter), else the bot to move. The bot gets a copy of the state, as in Play (the table model's ``table_model.bot_turn`` and ``bot_move``)."""
        # at the setup the fast bots first: a slow one's thinking holds up no other's choice
        order = sorted(range(len(self.seats)), key=lambda i: self.level_of(i) in SLOW_LEVELS)
        turn = self.session.bot_turn(now, away_s, order)  # none while a round is shown resolving (issue 24)
        if turn is None:
            return None
        ply = self.game.ply
        seed = f"{self.seed}/{turn.seat}" if turn.setup else f"{self.seed}/{turn.seat}/{ply}"
        return BotJob(turn.seat, self.level_of(turn.seat), seed, turn.state, turn.setup, ply)

    def bot_answer(self, job: BotJob, action: Action, now: float | None = None) -> bool:
        """Take a bot's decision if the table is still where ``job`` was asked (True if taken).
        The engine judges it like anyone's (a setup pair when every seat's is revealed)."""
        if self.game is None or self.is_over or self.game.ply != job.ply:
            return False
        if job.setup:
            if not self.in_setup or job.seat in self.pending:
                return False
        elif self.in_setup or self.game.current != job.seat:
            return False
        # the engine refuses a bot's illegal decision like anyone's
        self.session.take(BotTurn(job.seat, job.state, job.setup), action, self.last_active if now is None else now)
        return True

    def play_bots(self, now: float, away_s: float | None) -> bool:
        """Let bots move while one is to (not while a round is shown resolving: a bot's move that
        ends a round stops them there); True if any did, or a resolution shown ended. With
        :attr:`think_off_loop` (the server's) it stops before a :data:`SLOW_LEVELS` decision: the
        server asks it off its event loop (:meth:`bot_job`) and hands the move back
        (:meth:`take_bot_move`)."""
        moved = self._resolution_over(now)
        while (self.showing is None or self._resolution_over(now)) \
                and (job := self.bot_job(now, away_s)) is not None:
            if self.think_off_loop and job.level in SLOW_LEVELS:
                break
            moved = self.bot_answer(job, job.think(), now) or moved
        if moved:
            self.version += 1
        return moved

    def take_bot_move(self, job: BotJob, action: Action, now: float, away_s: float | None) -> bool:
        """A decision thought off the loop, taken if still due; then the fast bots go on."""
        if not self.bot_answer(job, action, now):
            return False
        self.version += 1
        self.play_bots(now, away_s)
        return True

    # ------------------------------------------------------------------ saving
    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code, "seats": [s.to_dict() for s in self.seats], "rules": self.rules.to_dict(),
            "deck": None if self.deck.is_reference else self.deck.to_toml(), "seed": self.seed,
            "created": self.created, "last_active": self.last_active, "version": self.version,
            "record": to_record(self.game) if self.game is not None else None,
            "pending": {str(k): list(v) for k, v in self.pending.items()},
            "lord": None if self.lord is None else self.lord.to_dict(),
            "showing": self.showing, "ready": sorted(self.ready), "setup_from": self.setup_from,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> "Table":
        deck = parse_deck_text(data["deck"]) if data.get("deck") else reference_deck()
        table = cls(str(data["code"]), [_seat(s) for s in data["seats"]],
                    Rules.from_dict(data["rules"]), deck, int(data["seed"]), float(data["created"]),
                    float(data["last_active"]), version=int(data["version"]),
                    lord=lord_from_dict(data["lord"]) if data.get("lord") else None)
        if data.get("record") is not None:
            table.game = from_record(data["record"])
            table.setup_from = int(data.get("setup_from", table.version))  # older files: the strict check
        table.pending = {int(k): (int(v[0]), int(v[1])) for k, v in data.get("pending", {}).items()}
        if data.get("showing") is not None:  # a resolution shown when the server stopped: shown again,
            # from the restart on (Lobby sets showing_since), waiting for every person (nobody's page is open yet)
            table.shown.show(int(data["showing"]), table.last_active, (int(x) for x in data.get("ready", ())),
                             resumed=True)
        return table


__all__ = ["AWAY_BOT", "BOT", "BOT_KIND", "BOT_LEVELS", "BotJob", "HUMAN", "OPEN", "SLOW_LEVELS", "Seat", "Table",
           "TableRefusal", "bot_level", "clean_name", "digest"]
