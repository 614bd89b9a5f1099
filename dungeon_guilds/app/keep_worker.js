/* Dungeon Guilds (issue 31): keep the offline worker (see site.py) */
(function () {
  var sw = navigator.serviceWorker;
  if (sw && sw.controller) {
    var key = sw.controller.scriptURL + "-version";
    if (!localStorage.getItem(key)) localStorage.setItem(key, "__APP_VERSION__");
  }
  /* once the dashboard is on screen, the worker may store the rest of the site */
  var tries = 0, poll = sw && setInterval(function () {
    if (++tries > 600) clearInterval(poll);
    if (sw.controller && document.querySelector(".dg-dashboard")) {
      clearInterval(poll);
      sw.controller.postMessage("dg-ready");
    }
  }, 1000);
})();
