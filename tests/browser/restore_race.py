"""The widget manager's restore race (issue 54, race (b)), made to happen on demand in a page.

``race_script(hold_ms, stretch_ms)`` is a script for ``context.add_init_script`` that

* notes when the page's first widget output shows "Loading widget..." (``window.__dgLoadingAt``,
  the page's clock): the moment its view first asks the manager for its model;
* stretches each 100-ms sleep of ipywidgets' ``get_model`` wait (2 s in all) to ``stretch_ms``
  (a sleep is recognised by ``get_model`` in its caller's stack; 0 leaves it as it is);
* holds the kernel's ``update_states`` reply (every model's state: the end of the manager's
  restore) on the page's kernel websocket until ``hold_ms`` after that moment
  (``window.__dgStatesReleasedAt``), the manager's 4-s wait for that reply (after which it
  takes its slow path, one request per model) made 2 minutes.

With ``stretch_ms=1500`` the wait looks at 0 and 1.5 s and gives up at 3 s without looking
again; a reply released at 1.8 s ends the restore inside that last sleep: jupyterlab-manager
5.0.16 then shows "Error displaying widget: model not found" (the race); a page that loads the
project's page extension (``dungeon_guilds/app/page_extensions.py``: the widget manager looks
once more) draws the widget. :func:`without_last_look` makes a page do without that extension,
as upstream's pages are. Used by ``tests/browser/test_widget_restore_race.py`` and
``benchmarks/voila_restore_probe.py``.
"""

from __future__ import annotations

RACE_JS = """(() => {
  const HOLD_MS = __HOLD_MS__, STRETCH_MS = __STRETCH_MS__;
  window.__dgLoadingAt = 0;
  new MutationObserver(() => {
    if (!window.__dgLoadingAt && document.body && document.body.innerText.includes('Loading widget...'))
      window.__dgLoadingAt = Date.now();
  }).observe(document, {subtree: true, childList: true, characterData: true});
  const realSetTimeout = window.setTimeout.bind(window);
  window.setTimeout = function (f, ms, ...rest) {
    if (STRETCH_MS && ms === 100 && /get_model/.test(new Error().stack)) ms = STRETCH_MS;
    // the 4-s wait for the reply (then the manager's slow path) made 2 minutes: the reply is
    // always the one held, released when chosen
    if (HOLD_MS && ms === 4000 && /_loadFromKernel/.test(new Error().stack)) ms = 120000;
    return realSetTimeout(f, ms, ...rest);
  };
  // a frame of the kernel protocol, text or binary (TextDecoder replaces bytes it cannot read)
  const isStates = (data) =>
    (typeof data === 'string' ? data : new TextDecoder().decode(data)).includes('"update_states"');
  const slot = Object.getOwnPropertyDescriptor(WebSocket.prototype, 'onmessage');
  Object.defineProperty(WebSocket.prototype, 'onmessage', {
    configurable: true,
    get() { return slot.get.call(this); },
    set(handler) {
      if (!handler || !HOLD_MS) return slot.set.call(this, handler);
      slot.set.call(this, function (event) {
        if (!isStates(event.data)) return handler.call(this, event);
        const release = () => {
          if (!window.__dgLoadingAt) return realSetTimeout(release, 5);
          const wait = window.__dgLoadingAt + HOLD_MS - Date.now();
          if (wait > 0) return realSetTimeout(release, wait);
          window.__dgStatesReleasedAt = Date.now();
          handler.call(this, event);
        };
        release();
      });
    },
  });
})();"""

# seconds from the first "Loading widget..." to the reply's release (None: not released yet)
RELEASED_JS = ("() => window.__dgStatesReleasedAt ? "
               "(window.__dgStatesReleasedAt - window.__dgLoadingAt) / 1000 : null")
WIDGET_ERRORS_JS = """() => [...document.querySelectorAll('[cell-index]')]
  .filter(c => /Error displaying widget/.test(c.innerText)).map(c => c.getAttribute('cell-index'))"""


# the page extension's one script (dungeon_guilds/app/labextensions/dungeon-guilds-widgets)
EXTENSION_SCRIPT = "**/dungeon-guilds-widgets/static/remoteEntry.js"
LAST_LOOK_JS = "() => window.__dgGetModelLastLook === true"


def without_last_look(context) -> None:
    """Pages of ``context`` (a Playwright browser context) get a 404 for the page extension's
    script: the page loads every other extension and logs the missing one, as a page of a
    server without the extension would (upstream's page)."""
    context.route(EXTENSION_SCRIPT, lambda r: r.fulfill(status=404, body=""))


def race_script(hold_ms: int, stretch_ms: int = 0) -> str:
    """The init script (module docstring) for a reply held ``hold_ms`` after the first
    "Loading widget..." and ``get_model``'s sleeps of ``stretch_ms``."""
    return RACE_JS.replace("__HOLD_MS__", str(int(hold_ms))).replace("__STRETCH_MS__", str(int(stretch_ms)))
