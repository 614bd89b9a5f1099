"""The Lab's design workshop under load: does every comm message of its build reach the page?
(issue 54, item 1: the "Design workshop did not appear within 120 s" and "Lord builder hidden"
flakes of the clean clones' CI).

Each run opens the dashboard (Voila with its preheated pool, as the browser tests serve it) in
Chromium, clicks Lab → Design workshop, waits for the deck editor, clicks Lord builder and waits
for its print panel. Every frame of the page's kernel websocket is recorded (Playwright's
``framereceived``: the v1 binary protocol or JSON) and, after the run, checked: a widget state
that names a model (``IPY_MODEL_…``) whose ``comm_open`` never reached the page is a message
lost between the kernel and the page. Printed per run: what showed, the frames received, the
console errors, the models named but never opened, the stream messages' text, and where the
frames stopped.

    .venv/bin/python benchmarks/bench_render_races.py --runs 8 --throttle 20 --hogs 2

``--throttle N``: Chromium's CPU slowed N times (DevTools ``Emulation.setCPUThrottlingRate``);
``--hogs N``: N busy Python processes beside it (stopped at the end). Figures:
docs/architecture.md, "Render races: causes and fixes".
"""

from __future__ import annotations

import argparse
import json
import re
import struct
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
REF = re.compile(r"IPY_MODEL_([0-9a-f]{32})")
WAIT_MS = 60_000


# the end of both logging snippets below: the lines kept in memory (``_lines``, tuples) are written
# to ``_path`` once a second, one JSON list a line (a write a message slowed the kernel's sends)
FLUSH_LOOP = r"""
def _flush():
    while True:
        time.sleep(1)
        taken = _lines[:]
        del _lines[:len(taken)]
        if taken:
            with open(_path, "a") as f:
                f.write("".join(json.dumps(x) + "\n" for x in taken))
threading.Thread(target=_flush, daemon=True).start()
"""

# --kernel-log: an IPython startup file that makes every kernel write a line for each message it
# publishes (after ipykernel's session has framed it, before the IOPub thread sends it), so that a
# message the page lacks can be looked for among those the kernel sent
KERNEL_LOG_STARTUP = r"""
import json, os, threading, time
from jupyter_client.session import Session
_path = os.path.join(os.environ["DG_KERNEL_LOG"], f"kernel-{os.getpid()}.jsonl")
_lines = []  # (time, type, comm id, method), written by FLUSH_LOOP
_send = Session.send
def send(self, stream, msg_or_type, content=None, parent=None, ident=None, *args, **kwargs):
    msg = _send(self, stream, msg_or_type, content, parent, ident, *args, **kwargs)
    c = msg.get("content") or {}
    d = c.get("data")
    _lines.append((time.time(), msg["header"]["msg_type"], c.get("comm_id"),
                   d.get("method") if isinstance(d, dict) else None))
    return msg
Session.send = send
""" + FLUSH_LOOP


# --server-log: a Voila config file (``voila.py`` in $JUPYTER_CONFIG_DIR, which Voila reads) that
# makes jupyter_server write a line for each message it takes from a kernel for a page's websocket
# (after its rate limiter, before it writes it to the page)
SERVER_LOG_CONFIG = r"""
import os, re, threading, time, json
from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection
_path = os.path.join(os.environ["DG_SERVER_LOG"], "server.jsonl")
_lines = []  # (time, channel, type, comm id, kernel id), written by FLUSH_LOOP
_comm = re.compile(rb'"comm_id":\s*"([0-9a-f-]+)"')
_type = re.compile(rb'"msg_type":\s*"([a-z_]+)"')
_on = ZMQChannelsWebsocketConnection._on_zmq_reply
def _on_zmq_reply(self, stream, msg_list):
    try:
        parts = [bytes(m) for m in msg_list[:4]]  # (v1 protocol) header, parent, metadata, content
        t = _type.search(parts[0]); c = _comm.search(parts[3][:300])
        _lines.append((time.time(), getattr(stream, "channel", None), t and t.group(1).decode(),
                       c and c.group(1).decode(), self.kernel_id))
    except Exception as exc:
        _lines.append((time.time(), "error", repr(exc), None, None))
    return _on(self, stream, msg_list)
ZMQChannelsWebsocketConnection._on_zmq_reply = _on_zmq_reply
""" + FLUSH_LOOP


def server_log_env() -> tuple[dict, Path]:
    """The environment that makes the Voila server log the IOPub messages it passes to pages."""
    where = Path(tempfile.mkdtemp(prefix="render-races-server-"))
    (where / "config").mkdir()
    (where / "config" / "voila.py").write_text(SERVER_LOG_CONFIG)
    return {"JUPYTER_CONFIG_DIR": str(where / "config"), "DG_SERVER_LOG": str(where)}, where


def server_got(where: Path, comms: list[str]) -> dict:
    """For each comm id, the messages naming it that the server took from the kernel."""
    path = where / "server.jsonl"
    lines = [json.loads(x) for x in path.read_text().splitlines() if x] if path.exists() else []
    return {c: [x[2] for x in lines if x[3] == c][:4] for c in comms}


def server_passed(where: Path, kernel: str | None) -> int:
    """How many of ``kernel``'s messages the server passed to its page (to set beside the frames
    the page received: equal, the loss is before the server; more, after it)."""
    path = where / "server.jsonl"
    lines = [json.loads(x) for x in path.read_text().splitlines() if x] if path.exists() else []
    return sum(1 for x in lines if x[4] == kernel)


def kernel_log_env() -> tuple[dict, Path]:
    """The environment that makes every kernel of the server log its sends, and where they go."""
    where = Path(tempfile.mkdtemp(prefix="render-races-kernels-"))
    startup = where / "ipython" / "profile_default" / "startup"
    startup.mkdir(parents=True)
    (startup / "00-log-sends.py").write_text(KERNEL_LOG_STARTUP)
    return {"IPYTHONDIR": str(where / "ipython"), "DG_KERNEL_LOG": str(where)}, where


def kernel_sent(where: Path, comms: list[str]) -> dict:
    """For each comm id, the kernel log lines (over every kernel) of messages naming it."""
    lines = [json.loads(x) for f in where.glob("kernel-*.jsonl") for x in f.read_text().splitlines() if x]
    return {c: [(x[1], x[3]) for x in lines if x[2] == c][:4] for c in comms}


def parse_frame(payload) -> dict:
    """One websocket frame as {type, comm, method, model, refs, restored, text}."""
    if isinstance(payload, str):
        msg = json.loads(payload)
    else:
        raw = bytes(payload)
        n = struct.unpack_from("<Q", raw, 0)[0]
        offsets = list(struct.unpack_from(f"<{n}Q", raw, 8)) + [len(raw)]
        parts = [raw[offsets[i]:offsets[i + 1]] for i in range(n)]
        msg = {k: json.loads(parts[i + 1]) for i, k in enumerate(("header", "parent_header", "metadata", "content"))}
    content = msg.get("content") or {}
    data = content.get("data") or {}
    state = data.get("state") or data.get("states") or {}
    return {"type": msg["header"]["msg_type"], "comm": content.get("comm_id"), "method": data.get("method"),
            "model": state.get("_model_name") if isinstance(state, dict) else None,
            "refs": sorted(set(REF.findall(json.dumps(state)))),
            "restored": sorted((data.get("states") or {}).keys()) if data.get("method") == "update_states" else [],
            "text": content.get("text", "")[:200] if msg["header"]["msg_type"] == "stream" else ""}


def never_opened(frames: list[dict]) -> list[str]:
    """Models a received state names whose comm_open (or restored state) never reached the page."""
    known = {f["comm"] for f in frames if f["type"] == "comm_open"}
    for f in frames:
        known.update(f["restored"])
    return sorted({r for f in frames for r in f["refs"]} - known)


def retry(page, frames: list[dict], tab: str, shown: str) -> str:
    """After a miss, what the tests' retry did: click ``tab`` again, then count the frames that
    come in the next 10 s and look for ``shown``."""
    before, t = len(frames), frames[-1]["t"] if frames else None
    page.get_by_role("tab", name=tab).click(timeout=10_000)
    page.wait_for_timeout(10_000)
    return (f"no frame after {t} s; {tab} clicked again: {len(frames) - before} more frames in 10 s, "
            f"{shown} shown {page.locator(shown).first.is_visible()}")


def one_run(browser, url: str, throttle: float) -> dict:
    context = browser.new_context(viewport={"width": 1024, "height": 768})
    page = context.new_page()
    frames, errors, t0 = [], [], time.monotonic()
    kernel = []  # the page's kernel, from its websocket's address (/api/kernels/<id>/channels)
    page.on("websocket", lambda ws: "/channels" in ws.url and (kernel.append(ws.url.split("/kernels/")[1].split("/")[0]),
                                                               ws.on("framereceived", lambda p: frames.append(
                                                                   dict(parse_frame(p), t=round(time.monotonic() - t0, 2))))))
    page.on("console", lambda m: m.type == "error" and "atisf" not in m.text and errors.append(m.text[:120]))
    try:
        page.goto(url, timeout=120_000)
        page.wait_for_selector(".dg-dashboard .dg-stepper .dg-board", timeout=180_000)
        if throttle > 1:
            context.new_cdp_session(page).send("Emulation.setCPUThrottlingRate", {"rate": throttle})
        shown = "workshop and Lord builder shown"
        page.get_by_role("tab", name="Lab").click()
        page.get_by_role("tab", name="Design workshop").click(timeout=120_000)
        for tab, selector in (("Design workshop", ".dg-deck-editor"), ("Lord builder", ".dg-lord-builder .dg-print-panel")):
            try:
                if tab != "Design workshop":
                    page.get_by_role("tab", name=tab).click()
                page.locator(selector).first.wait_for(timeout=WAIT_MS)
            except Exception:  # noqa: BLE001 - Playwright's TimeoutError: reported, the run goes on
                shown = f"MISSED {selector}; {retry(page, frames, tab, selector)}"
                break
        page.wait_for_timeout(1000)
    finally:
        context.close()
    return {"shown": shown, "frames": len(frames), "kernel": kernel[-1] if kernel else None,
            "errors": errors, "never_opened": never_opened(frames),
            "streams": [f["text"] for f in frames if f["text"]], "last_frame_s": frames[-1]["t"] if frames else None}


def main() -> None:
    from playwright.sync_api import sync_playwright

    from dungeon_guilds.app import serving

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--runs", type=int, default=4)
    ap.add_argument("--throttle", type=float, default=1)
    ap.add_argument("--hogs", type=int, default=0)
    ap.add_argument("--stock-kernel", action="store_true",
                    help="kernels started as ipykernel's spec says (no IOPub fix), to compare")
    ap.add_argument("--server-log", action="store_true",
                    help="the Voila server logs the IOPub messages it passes to pages; a model the page lacks is "
                         "looked for there")
    ap.add_argument("--kernel-log", action="store_true",
                    help="every kernel logs the messages it sends; a model the page lacks is looked for there")
    args = ap.parse_args()
    env, where = kernel_log_env() if args.kernel_log else ({}, None)
    server_env, server_where = server_log_env() if args.server_log else ({}, None)
    env = {**env, **server_env} or None
    hogs = [subprocess.Popen([sys.executable, "-c", "while 1: pass"]) for _ in range(args.hogs)]
    log = Path(tempfile.mkdtemp(prefix="render-races-")) / "voila.log"
    server = serving.start_voila(ROOT, log, cull_idle=60, cull_interval=1, wait_pool=True, env=env,
                                 extra_args=("--PoolKeepingKernelManager.refill_busy=0",) + (
                                     ("--PoolKeepingKernelManager.kernel_manager_class="
                                      "jupyter_server.services.kernels.kernelmanager.ServerKernelManager",)
                                     if args.stock_kernel else ()))
    bad = 0
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path="/usr/bin/chromium")
            for run in range(args.runs):
                r = one_run(browser, server.url, args.throttle)
                bad += bool(r["errors"] or r["never_opened"] or r["shown"].startswith("MISSED"))
                if where is not None and r["never_opened"]:
                    r["kernel_sent"] = kernel_sent(where, r["never_opened"][:5])
                if server_where is not None and (r["never_opened"] or r["shown"].startswith("MISSED")):
                    time.sleep(1.5)  # the server's log is written once a second
                    r["server_got"] = server_got(server_where, r["never_opened"][:5])
                    r["server_passed"] = server_passed(server_where, r["kernel"])
                print(f"run {run}: {json.dumps(r)}", flush=True)
            browser.close()
    finally:
        server.stop()
        for hog in hogs:
            hog.kill()
    kernel = "stock ipykernel" if args.stock_kernel else "the dashboard's kernel (IOPub never dropping)"
    print(f"{bad} of {args.runs} runs lost a message or the workshop (throttle {args.throttle}, hogs {args.hogs}; "
          f"{kernel}); "
          f"Voila's log: {log}")


if __name__ == "__main__":
    main()
