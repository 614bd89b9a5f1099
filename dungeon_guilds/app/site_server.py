"""Serve a built static site (``dungeon_guilds.app.site``) on loopback, optionally under a
sub-path as GitHub Pages does (``/<repo>/``): for trying the site (``make serve-site``) and for
the browser test. Only files under the site's folder are served; nothing is written."""

from __future__ import annotations

import functools
import threading
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

from .. import i18n
from .console import lan_addresses


class _Handler(SimpleHTTPRequestHandler):
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map,
                      ".wasm": "application/wasm", ".mjs": "text/javascript",
                      ".js": "text/javascript", ".json": "application/json", ".whl": "application/zip"}
    prefix = "/"

    def log_message(self, format, *args):  # quiet: a site makes hundreds of requests
        pass

    def handle(self):
        try:
            super().handle()
        except (BrokenPipeError, ConnectionResetError):  # the browser went away mid-answer
            pass

    def _strip(self) -> bool:
        path = self.path.split("?", 1)[0]
        if self.prefix != "/" and path + "/" == self.prefix:
            self.send_response(301)
            self.send_header("Location", self.prefix)
            self.end_headers()
            return False
        if not path.startswith(self.prefix):
            self.send_error(404, f"this server serves the site under {self.prefix}")
            return False
        self.path = "/" + self.path[len(self.prefix):]
        return True

    def do_GET(self):
        if self._strip():
            super().do_GET()

    def do_HEAD(self):
        if self._strip():
            super().do_HEAD()


def normal_prefix(prefix: str) -> str:
    return "/" + "/".join(p for p in prefix.split("/") if p) + "/" if prefix.strip("/") else "/"


def make_server(folder: Path, port: int = 0, prefix: str = "/", host: str = "127.0.0.1") -> ThreadingHTTPServer:
    """A server (not started) for ``folder`` at ``http://host:port<prefix>``."""
    folder = Path(folder)
    if not (folder / "index.html").exists():
        raise FileNotFoundError(f"{folder} holds no built site (run: make site)")
    handler = type("SiteHandler", (_Handler,), {"prefix": normal_prefix(prefix)})
    return ThreadingHTTPServer((host, port), functools.partial(handler, directory=str(folder)))


def start(folder: Path, port: int = 0, prefix: str = "/") -> tuple[ThreadingHTTPServer, str]:
    """Serve in a background thread; returns the server (``shutdown()`` it) and the site's URL."""
    server = make_server(folder, port, prefix)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    host, port = server.server_address[:2]
    return server, f"http://{host}:{port}{normal_prefix(prefix)}"


def http_note() -> str:
    """What the class gets on the LAN's plain http and what https adds (issue 50), in English
    and 繁體中文: a LAN address is no secure context, so no service worker (no offline copy) and
    no Cache Storage (no saved Python, site_tools/pyodide-snapshot.js) there."""
    return "\n".join(i18n.t(f"serving.{key}", lang) for lang in ("en", "zh") for key in ("site_http", "site_https"))


def serve_forever(folder: Path, port: int = 0, prefix: str = "/", host: str = "127.0.0.1") -> int:
    """Serve until Ctrl-C; on every network (``host`` 0.0.0.0) the addresses students open are
    printed (issue 40: ``dungeon-guilds site DIR --serve --host 0.0.0.0``)."""
    server = make_server(folder, port, prefix, host)
    host, port = server.server_address[:2]
    addresses = [host] if host != "0.0.0.0" else ["127.0.0.1", *lan_addresses()]
    urls = "".join(f"\n  http://{a}:{port}{normal_prefix(prefix)}" for a in addresses)  # one address a line
    print(f"Serving {folder} (Ctrl-C stops it) at:{urls}", flush=True)
    if host == "0.0.0.0":
        print(http_note(), flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0
