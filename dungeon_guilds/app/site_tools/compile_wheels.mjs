// `make site` (dungeon_guilds/app/site.py): precompile the site's wheels to bytecode (issue 31).
//
//   node dungeon_guilds/app/site_tools/compile_wheels.mjs <pyodide folder> <wheel folder> <wheel file name>...
//
// Runs the same Pyodide the site ships (so the bytecode is exactly its Python's: a .pyc is only
// good for one minor version, and no CPython of that version need be installed here), and
// rewrites each wheel named with each module's source `x.py` replaced by its
// bytecode `x.pyc` — the layout of Pyodide's own distribution (`pyodide py-compile`): a browser
// then imports the modules without compiling them. Left out of each wheel, as no page of the
// site reads them: the JupyterLab / notebook extensions a wheel carries for a desktop install
// (`<name>.data/`, `*/labextension/`, `*/nbextension/`: the site has its own, from `voici
// build`), test suites (`*/tests/`), source maps, and plotly's FigureWidget bundle (the
// dashboard draws no FigureWidget; plotly.min.js stays: a downloaded report inlines it).
import { pathToFileURL } from "node:url";
import path from "node:path";

const [pyodideDir, wheelDir, ...names] = process.argv.slice(2);
if (!pyodideDir || !wheelDir || !names.length) {
  console.error("usage: node compile_wheels.mjs <pyodide folder> <wheel folder> <wheel file name>...");
  process.exit(2);
}
const { loadPyodide } = await import(pathToFileURL(path.join(path.resolve(pyodideDir), "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: path.resolve(pyodideDir) + "/" });
pyodide.FS.mkdirTree("/wheels");
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: path.resolve(wheelDir) }, "/wheels");
pyodide.globals.set("names", pyodide.toPy(names));
const report = pyodide.runPython(`
import importlib._bootstrap_external as ext
import os, warnings, zipfile

warnings.simplefilter("ignore", SyntaxWarning)  # old escape sequences: compiled as Python would

def compiled(name, source):
    """The .pyc bytes of a module (sourceless: no timestamp or hash to check), or None."""
    try:
        code = compile(source, name, "exec", dont_inherit=True)
    except SyntaxError:  # a file that is not this Python's (a template, a test for another version)
        return None
    return bytes(ext._code_to_timestamp_pyc(code, 0, 0))

def unused(name):
    parts = name.split("/")
    return (parts[0].endswith(".data") or name.endswith(".map")
            or any(p in ("labextension", "nbextension", "tests") for p in parts[1:-1])
            or name == "plotly/package_data/widgetbundle.js")

def compile_wheel(path):
    tmp, done = path + ".tmp", 0
    with zipfile.ZipFile(path) as src, zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED) as dst:
        record, renamed = None, {}
        for info in src.infolist():
            data, name = src.read(info), info.filename
            if unused(name):
                renamed[name] = None
                continue
            if name.endswith(".dist-info/RECORD"):
                record = (info, data)
                continue
            if name.endswith(".py") and ".data/" not in name.split("/", 1)[0] + "/":
                pyc = compiled(name, data)
                if pyc is not None:
                    renamed[name] = name + "c"
                    name, data, done = name + "c", pyc, done + 1
            dst.writestr(zipfile.ZipInfo(name, date_time=info.date_time), data, zipfile.ZIP_DEFLATED)
        if record is not None:  # the file list follows the renames (no hash for the .pyc)
            lines = []
            for line in record[1].decode().splitlines():
                file = line.split(",", 1)[0]
                if file not in renamed:
                    lines.append(line)
                elif renamed[file] is not None:
                    lines.append(renamed[file] + ",,")
            dst.writestr(record[0].filename, "\\n".join(lines) + "\\n")
    os.replace(tmp, path)
    return done

report = []
for whl in names:
    report.append(f"{whl}: {compile_wheel('/wheels/' + whl)} modules compiled")
"\\n".join(report)
`);
console.log(report);
