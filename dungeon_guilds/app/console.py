"""What a teacher sees in the terminal while ``dungeon-guilds dashboard`` serves (standard
library only).

The server (Voila, and the kernels it starts, which write to the same terminal) prints many
routine lines that look like errors to someone who is not a developer: every page's "Notebook
dashboard.ipynb is not trusted" (a dashboard is run by the server, never trusted or not), every
kernel's "running over TCP without encryption" (the kernels talk to the server on this computer
only), connection-file and kernel start/stop notes. :func:`routine` recognises them;
:class:`ConsoleFilter` drops them and turns the server's own milestones into plain lines:
where students connect (:func:`student_urls`: the computer's network address, not its
host name, which other computers cannot resolve) and, once the preheated kernels have run the
dashboard, one line saying it is ready and for how many students at once.
"""

from __future__ import annotations

import re
import socket
from dataclasses import dataclass, field

#: server lines that are routine, not problems (matched anywhere in the line)
ROUTINE = (
    r"is not trusted",
    r"running over TCP without encryption",
    r"to store connection files",
    r"Storing connection files",
    r"Serving static files from",
    r"Kernel started: ",
    r"Kernel shutdown: ",
    r"Culling kernels with idle durations",
    r"Using pre-heated kernel",
    r"Kernel pool of .* is filled",
    r"Voil. is running at",
    r"^https?://\S+/?\s*$",
    r"Handle signal \d+",
    r"Starting buffering for",
    r"Culling '?idle'? kernel",
    r"Discarding \d+ buffered messages",
    # issue 40: every page's kernel connection, a favicon a browser asks for, tornado's ping note
    r"Adapting from protocol version",
    r"Connecting to kernel ",
    r"favicon\.ico",
    r"websocket_ping_timeout",
    r"Kernel pool grows to",
    # issue 53: tornado's / pyzmq's warning that a connection closed with events still queued
    # (a student closed a tab, or a culled kernel's channel): nothing is lost, nothing to do
    r"Got events for closed stream",
)
_ROUTINE = re.compile("|".join(f"(?:{p})" for p in ROUTINE))
RUNNING = re.compile(r"Voil. is running at")
POOL_FILLED = re.compile(r"Kernel pool of .* is filled with (\d+) kernel")
POOL_GROWS = re.compile(r"Kernel pool grows to (\d+) kernels")
TEACHER_CODE = re.compile(r"teacher code: (\S+)")
TEACHER_PAGE = "dungeon-guilds/teacher"  # app/table_server.py: BASE/teacher
# a traceback the teacher never needs: a student closed a tab while the server wrote to it
CLOSED_TAB = re.compile(r"(WebSocketClosedError|StreamClosedError)")
TRACEBACK = "Traceback (most recent call last)"
# asyncio's "Task exception was never retrieved" is followed by the task ("future: <Task …
# exception=WebSocketClosedError()>") before its traceback: held with it (issue 53)
ASYNCIO_TASK = "future: <"
CHAINED = ("During handling of the above exception", "The above exception was the direct cause")
# a line that may introduce a traceback (held back one line to be dropped with it)
ERROR_HEAD = re.compile(r"Exception in callback|Uncaught exception|exception was never retrieved|ERROR \||\[E ")
WILDCARD_HOSTS = ("0.0.0.0", "", "::")

CANNOT_CONNECT = (
    "If a student's computer cannot open it: it must be on the same network as this one "
    "(not a guest Wi-Fi); a firewall on this computer must let port {port}/tcp in "
    "(e.g. `sudo ufw allow {port}/tcp`); and Wi-Fi networks with 'client isolation' "
    "(common in schools and cafés) stop devices reaching each other — ask for a network without it, "
    "or share this computer's hotspot."
)


def routine(line: str) -> bool:
    """True for a server line that is routine (:data:`ROUTINE`)."""
    return bool(_ROUTINE.search(line))


def lan_addresses() -> list[str]:
    """This computer's IPv4 addresses on its networks (not loopback), best first. The first is
    the address of the interface the default route leaves by (found with a UDP socket's
    ``connect``, which sends nothing); then the host name's other addresses."""
    found: list[str] = []
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: no packet is sent for a UDP connect
            found.append(s.getsockname()[0])
    except OSError:
        pass
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
    except OSError:
        infos = []
    found += [info[4][0] for info in infos]
    out: list[str] = []
    for address in found:
        if not address.startswith("127.") and address != "0.0.0.0" and address not in out:
            out.append(address)
    return out


def student_urls(host: str, port: int) -> list[str]:
    """The addresses students type: ``host`` itself unless it is a wildcard (then every
    :func:`lan_addresses`, or loopback if there is none)."""
    if host not in WILDCARD_HOSTS:
        shown = f"[{host}]" if ":" in host else host
        return [f"http://{shown}:{port}/"]
    addresses = lan_addresses() or ["127.0.0.1"]
    return [f"http://{a}:{port}/" for a in addresses]


def _n(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def local_only(host: str) -> bool:
    return host == "localhost" or host.startswith("127.") or host == "::1"


@dataclass
class ConsoleFilter:
    """Feed it the server's output line by line (:meth:`feed`); it returns the lines to show."""

    host: str
    port: int
    pool: int
    max_kernels: int
    verbose: bool = False
    ready: bool = False
    pools_filled: int = 0
    grown_to: int = 0
    shown: list[str] = field(default_factory=list)
    _held: list[str] = field(default_factory=list)  # an error line, or a traceback, not shown yet
    _in_traceback: bool = False
    _ended: bool = False  # the traceback's exception line came: the next line decides

    def feed(self, line: str) -> list[str]:
        """The lines to show for one line of the server's output (a traceback is held back
        until it ends, and dropped if it only says a student closed a tab)."""
        text = line.rstrip("\n")
        if self.verbose:
            out = self._show(text)
        elif self._in_traceback and self._part_of_traceback(text):
            self._held.append(text)
            out = []
        else:
            out = (self._release() if self._in_traceback else []) + self._idle(text)
        self.shown += out
        return out

    def flush(self) -> list[str]:
        """What is held back when the server's output ends."""
        out = self._release()
        self.shown += out
        return out

    def _idle(self, text: str) -> list[str]:
        if text.startswith(TRACEBACK):  # after an error line held back, or alone
            self._in_traceback, self._ended = True, False
            self._held.append(text)
            return []
        if self._held and text.startswith(ASYNCIO_TASK):  # the task an asyncio error line names
            self._held.append(text)
            return []
        out = self._release()  # an error line not followed by a traceback
        if ERROR_HEAD.search(text) and not routine(text):
            self._held.append(text)
            return out
        return out + self._show(text)

    def _part_of_traceback(self, text: str) -> bool:
        if text.startswith((TRACEBACK, *CHAINED)):
            self._ended = False
            return True
        if text.startswith((" ", "\t")) or not text.strip():
            return True
        if not self._ended:  # the exception's own line
            self._ended = True
            return True
        return False

    def _release(self) -> list[str]:
        """The lines held back, or none if they are a closed tab's error (:data:`CLOSED_TAB`: its
        traceback, or asyncio's task line naming the exception)."""
        held, self._held = self._held, []
        closed_tab = any(CLOSED_TAB.search(h) for h in held)
        self._in_traceback = self._ended = False
        return [] if closed_tab else held

    def _show(self, line: str) -> list[str]:
        """The lines ``line`` shows once it is not part of a traceback."""
        out: list[str] = []
        if RUNNING.search(line):
            out += self._running()
        filled = POOL_FILLED.search(line)
        if filled and not self.ready:
            out += self._ready()
        grows = POOL_GROWS.search(line)
        if grows:
            out += self._grown(int(grows.group(1)))
        code = TEACHER_CODE.search(line)
        if self.verbose or not routine(line):
            out.append(line.rstrip("\n"))
        if code:
            out.append(f"Teacher page: {student_urls(self.host, self.port)[0]}{TEACHER_PAGE} (code {code.group(1)})")
        return out

    def _grown(self, size: int) -> list[str]:
        """One line when the pool first grows, then at every fifth kernel."""
        first = not self.grown_to
        self.grown_to = size
        if not first and size % 5:
            return []
        # issue 53: said as what happened (a page found every prepared kernel taken: the pool is
        # prepared again only once pages stop arriving, so a page 16 s after the others counts,
        # the teacher's own too), not "more students arrived at once"
        return [f"Note: a page opened while every prepared kernel was taken (they are prepared again once pages "
                f"stop arriving, so a page that comes soon after the others counts, your own included): preparing "
                f"{_n(size, 'kernel')} now (at most {self.max_kernels}). If that many pages open together in your "
                f"class, start with --class {max(size, self.pool)} next time to have them ready from the start."]

    def _running(self) -> list[str]:
        urls = student_urls(self.host, self.port)
        lines = [f"The dashboard is being served at {urls[0]}"]
        lines += [f"  (also {u})" for u in urls[1:]]
        if self.pool:
            lines.append(f"Preparing {_n(self.pool, 'kernel')} so that {_n(self.pool, 'student')} get the page at once "
                         "(each runs the dashboard once first: about 10-30 s each, two at a time)...")
        else:
            self.ready = True
            lines.append(self._ready_line())
        return lines

    def _ready(self) -> list[str]:
        self.ready = True
        return [self._ready_line()]

    def _ready_line(self) -> str:
        url = student_urls(self.host, self.port)[0]
        now = (f"ready for {_n(self.pool, 'student')} at once" if self.pool
               else "ready (no kernel prepared in advance: each page starts its own)")
        grows = (f"; when more arrive at once it prepares more, up to {self.max_kernels} — to have N ready from "
                 "the start, restart with --class N" if self.pool else "")
        lines = [f"READY: {now} — open {url} (at most {self.max_kernels} pages at a time{grows}). Ctrl-C stops it."]
        if local_only(self.host):
            lines.append("Only this computer can open it; to serve a class on the local network, "
                         "start it with --host 0.0.0.0 (make dashboard HOST=0.0.0.0).")
        else:
            lines.append(CANNOT_CONNECT.format(port=self.port))
        return "\n".join(lines)
