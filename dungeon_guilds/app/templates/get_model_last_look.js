// The widget manager looks for a model once more before it says "model not found" (issue 54,
// race (b); included by index.html.j2 in every page of the dashboard's server).
//
// The race, in @jupyter-widgets/jupyterlab-manager 5.0.16 (ipywidgets 8.1.9), which Voila's pages
// run: a cell's widget view asks the manager for its model while the manager is still fetching
// the models from the kernel. `get_model` looks every 100 ms for 2 s, and after its last sleep it
// gives up without looking again. When the models arrive and the fetch ends during that last
// sleep, the view is told "model not found" with the manager already restored, and shows
// "Error displaying widget: model not found" for good (a view told so *before* the end of the
// fetch is drawn again when it ends). benchmarks/voila_restore_probe.py reproduces it.
//
// The fix: `get_model` wrapped so that a "not found" looks at the manager's models once more.
// It is installed when Voila initialises the manager's extension (window._JUPYTERLAB, the
// federated-extension registry), before any view is drawn; window.__dgGetModelLastLook says it
// is in place. Nothing else changes: a model that is really missing is still an error.
(function () {
  "use strict";
  var NAME = "@jupyter-widgets/jupyterlab-manager";

  function withLastLook(managerClass) {
    for (var proto = managerClass && managerClass.prototype; proto; proto = Object.getPrototypeOf(proto)) {
      if (!Object.prototype.hasOwnProperty.call(proto, "get_model")) continue;
      if (proto.get_model.dgLastLook) return true;
      var wait = proto.get_model;
      var lastLook = async function (id) {
        try {
          return await wait.call(this, id);
        } catch (err) {
          var model = this._models && this._models[id];
          if (model !== undefined) return model;
          throw err;
        }
      };
      lastLook.dgLastLook = true;
      proto.get_model = lastLook;
      return true;
    }
    return false;
  }

  // the manager's extension as Voila sees it: the same container (its exports are read-only
  // getters, so it is wrapped, not changed), whose init then installs the last look
  function watched(container) {
    if (!container || container.dgWatched) return container;
    return {
      dgWatched: true,
      get: function (module) { return container.get(module); },
      init: async function () {
        var result = await container.init.apply(container, arguments);
        try {
          var index = (await container.get("./index"))();
          window.__dgGetModelLastLook = withLastLook(index.KernelWidgetManager);
        } catch (err) {
          console.warn("dungeon-guilds: the widget manager's get_model was left as it is", err);
        }
        return result;
      },
    };
  }

  var registry = (window._JUPYTERLAB = window._JUPYTERLAB || {});
  var current = watched(registry[NAME]);
  Object.defineProperty(registry, NAME, {
    configurable: true,
    enumerable: true,
    get: function () { return current; },
    set: function (container) { current = watched(container); },
  });
})();
