// dungeon-guilds-widgets: a prebuilt page extension for Voila and JupyterLab with one job. The
// widget manager looks for a model once more before it says "model not found" (issue 54,
// race (b)). Written by hand, no build step: a federated extension is a script that registers a
// container with `init` and `get` in window._JUPYTERLAB (what webpack's module federation would
// generate); its one module, "./extension", is a plugin that does nothing when activated.
// Found by Voila and JupyterLab through `extra_labextensions_path` (voila.json, the dashboard's
// server, `dungeon-guilds lab`, binder/postBuild): see dungeon_guilds/app/page_extensions.py.
//
// The race, in @jupyter-widgets/jupyterlab-manager 5.0.16 (ipywidgets 8.1.9), whose manager both
// Voila's pages and JupyterLab's notebooks run: a cell's widget view asks the manager for its
// model while the manager is still fetching the models from the kernel. `get_model` looks every
// 100 ms for 2 s, and after its last sleep it gives up without looking again. When the models
// arrive and the fetch ends during that last sleep, the view is told "model not found" with the
// manager already restored, and shows "Error displaying widget: model not found" for good (a
// view told so *before* the end of the fetch is drawn again when it ends).
// benchmarks/voila_restore_probe.py reproduces it; tests/browser/test_widget_restore_race.py
// forces it.
//
// The fix: `get_model` wrapped so that a "not found" looks at the manager's models once more.
// Both pages load every extension's container and call every `init` before they ask any
// container for its "./extension" module, and they draw no widget before the plugins are
// activated: when this container is asked for its module, the widget manager's container is
// initialised and no view has asked for a model yet. window.__dgGetModelLastLook says whether
// the last look is in place. Nothing else changes: a model that is really missing is still an
// error.
(function () {
  "use strict";
  var NAME = "dungeon-guilds-widgets";
  var MANAGER = "@jupyter-widgets/jupyterlab-manager";

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

  async function installLastLook() {
    var manager = (window._JUPYTERLAB || {})[MANAGER];
    if (!manager) {
      window.__dgGetModelLastLook = false; // a page without widgets
      return;
    }
    try {
      var index = (await manager.get("./index"))();
      window.__dgGetModelLastLook = withLastLook(index.KernelWidgetManager);
    } catch (err) {
      window.__dgGetModelLastLook = false;
      console.warn("dungeon-guilds: the widget manager's get_model was left as it is", err);
    }
  }

  var plugin = {
    id: NAME + ":get-model-last-look",
    description: "The widget manager looks for a model once more before it says \"model not found\".",
    autoStart: true,
    activate: function () {},
  };

  (window._JUPYTERLAB = window._JUPYTERLAB || {})[NAME] = {
    init: function () { return Promise.resolve(); },
    get: async function (module) {
      if (module !== "./extension") throw new Error(NAME + " has no module " + module);
      await installLastLook();
      return function () { return { __esModule: true, default: [plugin] }; };
    },
  };
})();
