"""The dashboard's Voila application (``make dashboard`` runs ``python -m dungeon_guilds.app.voila_app``).

Voila itself, configured by ``voila.json``, with eight changes a classroom needs (issue 12):

* **A kernel cap.** :class:`DashboardHandler` serves the page only while the kernel manager
  (:class:`~dungeon_guilds.app.kernel_manager.PoolKeepingKernelManager`) holds fewer than
  ``max_kernels`` kernels, counting the preheated pool, kernels starting and pages admitted whose
  kernel has not started yet. Beyond it the visitor gets at once an HTTP 503 page in plain words
  (English and 繁體中文: the class is full, try again in a minute) and no kernel is started.
  At the cap while a pool kernel is being readied (a page's kernel was culled and the pool
  refills), the visitor waits in line for it instead (:func:`queued_page`).
* **Closing a tab frees its kernel.** Voila's page sends a shutdown beacon carrying the
  ``_xsrf`` cookie's value, but Voila never sets that cookie, so the server refused the beacon
  (403) and the kernel stayed until the idle culler took it. The handler sets the cookie (reading
  ``xsrf_token``) before the page starts, so the beacon passes the usual XSRF check; XSRF stays on
  for every request. Voila sets its beacon up only once the widgets have loaded, so the template
  sends the same beacon from the start: a tab closed while it waits frees its kernel too
  (:class:`ShutdownHandler` answers the second goodbye for a kernel already gone).
* **Pages beyond the pool come one after another.** A page that finds no preheated kernel ready
  executes the notebook in its own kernel; at most ``pages_at_once`` do so at a time (counted in
  the kernel manager's ``pages_executing``, which also holds the pool's refills back). A page
  beyond them gets :func:`queued_page` (it is in line, and asks again in a few seconds, with
  ``?dg-in-line=1``). Each new page that finds no pool kernel ready grows the pool by one (up to
  the cap), and while pages wait in line the pool's kernels start at once (issue 40): the pool
  follows the class. A page in line keeps waiting while a pool kernel executes the notebook
  (it takes that kernel when ready) rather than executing the notebook itself
  (``PoolKeepingKernelManager.page_waits``).
* **A light page.** Plotly's page extension (all of plotly.js, 4.8 MB, parsed by every page
  before it drew anything) is left out of the pages; the kernels show figures as
  :class:`~dungeon_guilds.widgets.figure_view.LazyFigure` widgets, which load the same
  plotly.js from this server (:class:`PlotlyHandler`) when a figure first comes into view.
* **Class tables** (issue 26): :mod:`~dungeon_guilds.app.table_server`'s routes
  (``/dungeon-guilds/tables``, its websocket, ``/dungeon-guilds/teacher``): classmates play one
  game from their own devices; the tables live in this process, saved in
  ``$DUNGEON_GUILDS_TABLES_DIR``; a table page needs no kernel.
* **Lesson notebooks** (issue 50): every numbered notebook beside the dashboard's is a page of its
  own at ``/dungeon-guilds/notebooks/<name>`` (:class:`LessonNotebookHandler`; the dashboard's
  first screen links the ones the lesson plans name, :mod:`.lesson_links`).
* **Nothing from another host.** Voila's lab template links Font Awesome from a CDN. The page
  here uses :data:`TEMPLATE_DIR`'s ``index.html.j2`` (the lab template with Font Awesome served
  by this server from the ``fontawesome-free`` package at ``/dungeon-guilds/fontawesome/``) and
  says that it is waiting while the dashboard starts.
* **The widget manager's last look** (issue 54, race (b)): the pages load
  :mod:`~dungeon_guilds.app.page_extensions`' extension, so a widget whose model arrives in the
  manager's last wait is drawn instead of "model not found".
"""

from __future__ import annotations

import os
from html import escape
from importlib.metadata import PackageNotFoundError, distribution
from pathlib import Path

import tornado.web
from jupyter_core.utils import ensure_async
from jupyter_server.utils import url_path_join
from voila.app import Voila
from voila.shutdown_kernel_handler import VoilaShutdownKernelHandler
from voila.tornado.handler import TornadoVoilaHandler

from .. import i18n
from ..widgets import figure_view
from ..widgets.figure_view import FIGURES_ENV
from . import kernels, lesson_links, page_extensions, table_server
from .dashboard import TABLES_URL_ENV

TEMPLATE_DIR = Path(__file__).with_name("templates")
FONTAWESOME_URL = "dungeon-guilds/fontawesome"
# page extensions the dashboard's pages do without: plotly's carries all of plotly.js (4.8 MB)
# and every page parsed it before drawing anything; LazyFigure loads plotly.js when needed
PAGE_EXTENSIONS_LEFT_OUT = ("jupyterlab-plotly",)


def fontawesome_dir() -> Path:
    """Font Awesome's CSS and fonts, from the ``fontawesome-free`` package (a dashboard
    dependency); FileNotFoundError naming the package if it is missing."""
    try:
        path = Path(distribution("fontawesome-free").locate_file("fontawesome-free/static/fontawesome_free"))
    except PackageNotFoundError:
        raise FileNotFoundError("the fontawesome-free package is not installed (pip install -e '.[dashboard]')") from None
    if not (path / "css" / "all.min.css").is_file():
        raise FileNotFoundError(f"no Font Awesome CSS under {path}")
    return path


QUEUE_RETRY_S = kernels.QUEUE_RETRY_S  # a page in line asks again this often


def _plain_page(title_key: str, sections: list[str], head: str = "", body_id: str = "") -> str:
    title = f"{escape(i18n.t(title_key, 'en'))} · {escape(i18n.t(title_key, 'zh'))}"
    return ("<!DOCTYPE html><html><head><meta charset='utf-8'>"
            f"<meta name='viewport' content='width=device-width, initial-scale=1'>{head}<title>{title}</title>"
            "<style>body{font-family:sans-serif;max-width:40em;margin:3em auto;padding:0 1em;line-height:1.5}"
            f"section{{margin-bottom:2em}}</style></head><body><div id='{body_id}'>" + "".join(sections)
            + "</div></body></html>")


def full_page() -> str:
    """The page a visitor beyond the kernel cap gets (HTTP 503), in English and 繁體中文."""
    parts = []
    for lang, code in (("en", "en"), ("zh", "zh-Hant")):
        title, body, retry = (escape(i18n.t(f"serving.{k}", lang)) for k in ("full_title", "full_text", "full_retry"))
        parts.append(f'<section lang="{code}"><h1>{title}</h1><p>{body}</p>'
                     f'<p><a href="">{retry}</a></p></section>')
    return _plain_page("serving.full_title", parts, body_id="full")


def queued_page() -> str:
    """The page a visitor gets while ``pages_at_once`` other pages execute the notebook and the
    pool has no kernel ready (English and 繁體中文): it says it is waiting and asks again every
    :data:`QUEUE_RETRY_S` seconds (no kernel is started for it meanwhile)."""
    parts = []
    for lang, code in (("en", "en"), ("zh", "zh-Hant")):
        title, body = (escape(i18n.t(f"serving.{k}", lang)) for k in ("queued_title", "queued_text"))
        parts.append(f'<section lang="{code}"><h1>{title}</h1><p>{body}</p></section>')
    return _plain_page("serving.queued_title", parts, head=f"<meta http-equiv='refresh' content='{QUEUE_RETRY_S}; url=?{kernels.IN_LINE_ARG}=1'>",
                       body_id="loading")


class DashboardHandler(TornadoVoilaHandler):
    """Voila's page handler with the kernel cap and the ``_xsrf`` cookie (see the module)."""

    async def get(self, path=None):
        manager = self.kernel_manager
        admit = getattr(manager, "admit_page", None)
        if path or admit is None:
            await super().get(path)
            return
        cold = not manager.ready_kernels()  # no pool kernel ready: the page executes the notebook
        # issue 40: a new page finding no pool kernel ready grows the pool (up to the cap); a page
        # in line asking again does not count again
        in_line = self.get_query_argument(kernels.IN_LINE_ARG, None) is not None
        grow = cold and hasattr(manager, "grow_pool") and not in_line
        if cold and manager.page_waits(in_line):
            if grow:
                manager.grow_pool()
            if hasattr(manager, "note_waiting"):
                manager.note_waiting()  # pool kernels start at once while pages wait
            self._plain(200, queued_page())  # in line: asks again in a few seconds
            return
        admitted = admit()
        if not admitted and getattr(manager, "pool_warming", lambda: False)():
            # at the cap while a pool kernel executes the notebook (a refill after a cull): the
            # page waits in line for it (asks again in a few seconds) instead of a 503
            manager.note_waiting()
            self._plain(200, queued_page())
            return
        if not admitted:
            self.log.warning("kernel cap reached (%s kernels): 503 for %s", manager.max_kernels, self.request.remote_ip)
            self.set_header("Retry-After", "60")
            self._plain(503, full_page())
            return
        if grow:
            manager.grow_pool()
        self.xsrf_token  # noqa: B018 - sets the _xsrf cookie the page's shutdown beacon sends back
        if not cold:
            await super().get(path)
            return
        manager.pages_executing += 1  # pool refills wait meanwhile (kernel_manager.PoolKeepingKernelManager)
        try:
            await super().get(path)
        finally:
            manager.pages_executing -= 1

    def _plain(self, status: int, html: str) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "text/html; charset=UTF-8")
        self.set_header("Cache-Control", "no-store")
        self.finish(html)


class LessonNotebookHandler(DashboardHandler):
    """``<base>/dungeon-guilds/notebooks/<name>`` (issue 50): the numbered notebook ``<name>.ipynb``
    beside the dashboard's, as a Voila page of its own (its own kernel, under the same kernel cap
    as a dashboard page); 404 for a name that is no notebook there."""

    async def get(self, name: str):
        path = f"{name}.ipynb"
        if not lesson_links.NAME.fullmatch(name) or not await ensure_async(self.contents_manager.file_exists(path)):
            raise tornado.web.HTTPError(404, f"no lesson notebook {name}")
        self.notebook_path = path
        await super().get(None)


def waiting_css() -> str:
    """The style sheet that says "the dashboard is starting, wait" (both languages) under Voila's
    spinner while the page waits for its kernel, and alone after the spinner goes until the
    dashboard's widgets have arrived: a page is never blank."""
    lines = " \\A ".join(i18n.t("serving.waiting", lang).replace("\\", "").replace('"', "'") for lang in ("en", "zh"))
    look = "white-space: pre-line; text-align: center; max-width: 36em; margin: 1em auto; font-size: 1.1em; color: #444;"
    return ("#loading { flex-direction: column; }\n"
            f'#loading::after {{ content: "{lines}"; {look} }}\n'
            # after the spinner goes, until the dashboard's widgets have arrived from the kernel
            # (a lesson notebook's page, issue 50, shows its words at once: no line there)
            f'#rendered_cells:not(:has(.dg-dashboard, .jp-MarkdownCell))::before {{ content: "{lines}"; display: block; {look} }}\n')


class WaitingCSSHandler(tornado.web.RequestHandler):
    """``/dungeon-guilds/waiting.css`` (:func:`waiting_css`)."""

    def get(self):
        self.set_header("Content-Type", "text/css; charset=UTF-8")
        self.finish(waiting_css())


class ShutdownHandler(VoilaShutdownKernelHandler):
    """Voila's shutdown beacon handler (XSRF checked as before); a goodbye for a kernel already
    gone (the page's template and Voila's widget manager may both send one) is answered 204."""

    @tornado.web.authenticated
    async def post(self, kernel_id):
        if kernel_id not in self.kernel_manager:
            self.set_status(204)
            self.finish()
            return
        await super().post(kernel_id)


class DashboardVoila(Voila):
    """Voila with :class:`DashboardHandler`, the local Font Awesome and the dashboard template."""

    name = "voila"  # so voila.json (and every ``--Voila.*`` option) still applies

    def init_settings(self):
        pool = kernels.pool_size_from_env()  # $DUNGEON_GUILDS_POOL (make dashboard POOL=N) over voila.json
        if pool is not None:
            self.voila_configuration.default_pool_size = pool
        # plotly's page extension (all of plotly.js) stays out of the pages; the kernels (they
        # inherit this environment) draw figures as LazyFigure widgets instead (figure_view)
        denied = list(self.voila_configuration.extension_denylist or [])
        self.voila_configuration.extension_denylist = denied + [x for x in PAGE_EXTENSIONS_LEFT_OUT if x not in denied]
        os.environ[FIGURES_ENV] = "lazy"
        # the widget manager's last look for a model (issue 54, race (b)): page_extensions
        extra = list(self.voila_configuration.extra_labextensions_path or [])
        self.voila_configuration.extra_labextensions_path = [str(page_extensions.PATH), *extra]
        # the kernels (this environment) link the Play tab to the class tables this server holds
        os.environ[TABLES_URL_ENV] = url_path_join(self.base_url or "/", table_server.BASE, "tables")
        # and to the lesson notebooks, each a page of its own (issue 50: LessonNotebookHandler)
        os.environ[lesson_links.URL_ENV] = url_path_join(self.base_url or "/", lesson_links.ROUTE)
        return super().init_settings()

    def setup_template_dirs(self):
        super().setup_template_dirs()
        self.template_paths = [str(TEMPLATE_DIR), *self.template_paths]

    def init_handlers(self) -> list:
        ours = {TornadoVoilaHandler: DashboardHandler, VoilaShutdownKernelHandler: ShutdownHandler}
        handlers = [(pattern, ours.get(handler, handler), *rest) for pattern, handler, *rest in super().init_handlers()]
        static = (url_path_join(self.server_url, FONTAWESOME_URL, "(.*)"), tornado.web.StaticFileHandler,
                  {"path": str(fontawesome_dir())})
        waiting = (url_path_join(self.server_url, "dungeon-guilds/waiting.css"), WaitingCSSHandler)
        plotly_js = figure_view.plotly_js()
        plotly = (url_path_join(self.server_url, figure_view.PLOTLY_URL), PlotlyHandler,
                  {"path": str(plotly_js.parent), "default_filename": plotly_js.name})
        if getattr(self, "table_hub", None) is None:  # the class tables (issue 26), held in this process
            self.table_hub = table_server.make_hub()
            self.table_hub.listen_ip = self.ip  # a page on this computer shares the LAN address (issue 37)
            self.table_ticks = table_server.start_ticks(self.table_hub)
        tables = table_server.table_routes(url_path_join(self.server_url, ""), self.table_hub)
        favicons = [(url_path_join(self.server_url, path), NoFaviconHandler)
                    for path in ("favicon.ico", "voila/files/favicon.ico")]
        lessons = (url_path_join(self.server_url, lesson_links.ROUTE, f"({lesson_links.NAME.pattern})"),
                   LessonNotebookHandler, {"template_paths": self.template_paths, "config": self.config,
                                           "voila_configuration": self.voila_configuration})
        return [static, waiting, plotly, *favicons, *tables, lessons, *handlers]  # before Voila's catch-all page handler


class NoFaviconHandler(tornado.web.RequestHandler):
    """The icon a browser asks for on every page: none (204), instead of Voila's 403 "not
    allowlisted" logged twice per page (issue 40)."""

    def get(self):
        self.set_header("Cache-Control", "max-age=86400")
        self.set_status(204)
        self.finish()


class PlotlyHandler(tornado.web.StaticFileHandler):
    """The installed plotly package's ``plotly.min.js`` at :data:`figure_view.PLOTLY_URL`, and
    no other file: the pages' :class:`~dungeon_guilds.widgets.figure_view.LazyFigure` widgets
    load it when a figure first comes into view (cached by the browser after that)."""

    async def get(self, path: str = "", include_body: bool = True) -> None:
        await super().get(self.default_filename, include_body)


main = DashboardVoila.launch_instance

if __name__ == "__main__":
    main()
