"""Mutation testing of the rule modules (issue 54, item 3): ``make mutation`` runs this.

mutmut (the ``mutation`` extra; configured in pyproject.toml's ``[tool.mutmut]``: the modules it
may mutate and the in-process rule tests it runs in its copy, ``mutants/``) is run once per
module, one mutant at a time, and the score per module is printed from mutmut's results
(``mutants/dungeon_guilds/<module>.py.meta``):

    killed / (mutants - equivalent)

An equivalent mutant changes the code but no behaviour, so no test can kill it; each is listed,
with the line mutmut writes and the reason, in ``tools/mutation_equivalent.toml``. A listed
mutant whose line no longer matches (the module changed) is reported as stale and counted as a
survivor. A timeout counts as killed (the tests stop the mutant); "no tests" counts as a survivor.

    python tools/mutation.py                      # all ten modules, from a fresh copy
    python tools/mutation.py payout scoring       # some of them
    python tools/mutation.py --report             # print the scores of the last run only

docs/architecture.md ("Mutation testing") keeps the last scores. CI does not run it (it takes
hours for the ten modules on two cores).
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MUTANTS = ROOT / "mutants"
EQUIVALENT = ROOT / "tools" / "mutation_equivalent.toml"
MUTMUT = Path(sys.executable).with_name("mutmut")
# the rule modules, the small ones first (a partial run still scores whole modules)
MODULES = ("payout", "turn_order", "scoring", "lords", "actions", "cards", "rules", "view",
           "effects", "state")
KILLED = {1, 3, 36, 24, -24, 152, 255}  # mutmut's exit codes for killed and timeout
TARGET = 95.0


def equivalent() -> dict[str, dict]:
    """The equivalent mutants listed in tools/mutation_equivalent.toml, by name."""
    data = tomllib.loads(EQUIVALENT.read_text("utf-8"))
    return {m["name"]: m for m in data.get("mutant", [])}


def mutated_line(name: str) -> str:
    """The line mutant ``name`` writes (the '+' line of ``mutmut show``), stripped."""
    out = subprocess.run([str(MUTMUT), "show", name], cwd=ROOT, capture_output=True, text=True, check=True)
    plus = [ln[1:].strip() for ln in out.stdout.splitlines() if ln.startswith("+") and not ln.startswith("+++")]
    return plus[0] if plus else ""


def results(module: str) -> dict[str, int | None]:
    """mutmut's exit code per mutant of ``module`` (None: not run yet)."""
    meta = MUTANTS / "dungeon_guilds" / f"{module}.py.meta"
    if not meta.exists():
        return {}
    return json.loads(meta.read_text("utf-8"))["exit_code_by_key"]


def score(module: str, known: dict[str, dict]) -> dict:
    """Killed, survivors, equivalent (checked against the line mutmut writes now) and stale."""
    codes = results(module)
    killed = sum(1 for c in codes.values() if c in KILLED)
    alive = sorted(n for n, c in codes.items() if c is not None and c not in KILLED)
    equiv, stale = [], []
    for name in alive:
        if name in known:
            (equiv if mutated_line(name) == known[name]["line"].strip() else stale).append(name)
    survivors = [n for n in alive if n not in equiv]
    run = sum(1 for c in codes.values() if c is not None)
    judged = run - len(equiv)
    pct = 100.0 * killed / judged if judged else 0.0
    return {"module": module, "mutants": len(codes), "run": run, "killed": killed,
            "equivalent": equiv, "stale": stale, "survivors": survivors, "score": pct}


def run_module(module: str) -> None:
    """mutmut on one module's mutants, one at a time (the machine is shared)."""
    print(f"== mutmut: dungeon_guilds/{module}.py", flush=True)
    done = subprocess.run([str(MUTMUT), "run", "--max-children", "1", f"dungeon_guilds.{module}.*"],
                          cwd=ROOT, capture_output=True, text=True, check=False)
    if done.returncode:  # e.g. a listed test failed before any mutant: mutmut says which
        tail = (done.stdout + done.stderr).replace("\r", "\n").splitlines()[-15:]
        print(f"mutmut stopped (exit {done.returncode}):", *tail, sep="\n  ", flush=True)


def report(modules: list[str]) -> bool:
    """Print the score per module and the survivors; True when every module reaches TARGET."""
    known = equivalent()
    rows = [score(m, known) for m in modules]
    print(f"{'module':<12}{'mutants':>8}{'killed':>8}{'equiv.':>8}{'alive':>7}{'score':>9}")
    for r in rows:
        left = "" if r["run"] == r["mutants"] else f"  ({r['mutants'] - r['run']} not run)"
        print(f"{r['module']:<12}{r['run']:>8}{r['killed']:>8}{len(r['equivalent']):>8}"
              f"{len(r['survivors']):>7}{r['score']:>8.1f}%{left}")
    for r in rows:
        for name in r["survivors"]:
            print(f"  survived: {name}{'  (listed equivalent, line changed: stale)' if name in r['stale'] else ''}")
    return all(r["run"] and r["score"] >= TARGET for r in rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("modules", nargs="*", help=f"rule modules (default all: {' '.join(MODULES)})")
    ap.add_argument("--report", action="store_true", help="print the last run's scores, run nothing")
    ap.add_argument("--keep", action="store_true", help="keep mutants/ (resume) instead of a fresh copy")
    args = ap.parse_args(argv)
    modules = args.modules or list(MODULES)
    unknown = [m for m in modules if m not in MODULES]
    if unknown:
        ap.error(f"not a rule module: {', '.join(unknown)} (one of {', '.join(MODULES)})")
    if not args.report:
        if not args.keep:
            shutil.rmtree(MUTANTS, ignore_errors=True)  # a fresh copy of the working tree
        for module in modules:
            run_module(module)
    return 0 if report(modules) else 1


if __name__ == "__main__":
    sys.exit(main())
