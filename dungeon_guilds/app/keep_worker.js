/* Dungeon Guilds (issue 31): keep the offline worker (see site.py) */
(function () {
  var sw = navigator.serviceWorker;
  if (sw && sw.controller) {
    var key = sw.controller.scriptURL + "-version";
    if (!localStorage.getItem(key)) localStorage.setItem(key, "__APP_VERSION__");
  }
  /* once the dashboard's board is drawn, the worker may store the rest of the site, and the
     kernel its Pyodide snapshot (site_tools/pyodide-snapshot.js: at once, issue 40, so a tab
     closed soon after still leaves the next visit its fast start); not sooner: both would take
     the CPUs the first view is still being drawn with */
  var tries = 0, told = false, poll = setInterval(function () {
    if (++tries > 2400) clearInterval(poll);
    if (!document.querySelector(".dg-dashboard .dg-board svg")) return;
    if (!told && window.BroadcastChannel) {
      told = true;
      var channel = new BroadcastChannel("dungeon-guilds-site");
      channel.postMessage("dg-ready");
      channel.close();
    }
    if (!sw || sw.controller) {
      clearInterval(poll);
      if (sw) sw.controller.postMessage("dg-ready");
    }
  }, 250);
})();
