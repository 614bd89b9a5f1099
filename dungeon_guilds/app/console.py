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
)
_ROUTINE = re.compile("|".join(f"(?:{p})" for p in ROUTINE))
RUNNING = re.compile(r"Voil. is running at")
POOL_FILLED = re.compile(r"Kernel pool of .* is filled with (\d+) kernel")
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
    shown: list[str] = field(default_factory=list)

    def feed(self, line: str) -> list[str]:
        out: list[str] = []
        if RUNNING.search(line):
            out += self._running()
        filled = POOL_FILLED.search(line)
        if filled and not self.ready:
            out += self._ready()
        if self.verbose or not routine(line):
            out.append(line.rstrip("\n"))
        self.shown += out
        return out

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
        lines = [f"READY: {now} — open {url} (at most {self.max_kernels} pages at a time; "
                 "more students wait a few seconds each). Ctrl-C stops it."]
        if local_only(self.host):
            lines.append("Only this computer can open it; to serve a class on the local network, "
                         "start it with --host 0.0.0.0 (make dashboard HOST=0.0.0.0).")
        else:
            lines.append(CANNOT_CONNECT.format(port=self.port))
        return "\n".join(lines)
