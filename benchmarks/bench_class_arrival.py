"""A class arriving at once (issue 40): N pages ask the dashboard at the same moment over HTTP,
each following the line as the page does (asking again every 3 s with ``?dg-in-line=1``), and
the seconds until each is served are printed.

    dungeon-guilds dashboard --port 8974 &        # the default pool of 3, no --class
    python benchmarks/bench_class_arrival.py http://127.0.0.1:8974/ 8

Serving is not drawing: a served page still builds its widgets in the browser (measure that in
Chromium). Say the machine's load (``uptime``) with the figures.
"""

from __future__ import annotations

import sys
import threading
import time
import urllib.request

RETRY_S = 3  # dungeon_guilds.app.kernels.QUEUE_RETRY_S


def one(url: str, out: list) -> None:
    t0, asked_again, address = time.monotonic(), 0, url
    while True:
        with urllib.request.urlopen(address, timeout=600) as response:
            body = response.read().decode("utf-8", "replace")
        if "jupyter-config-data" in body:
            out.append((round(time.monotonic() - t0, 1), asked_again))
            return
        asked_again += 1
        time.sleep(RETRY_S)
        address = url + "?dg-in-line=1"


def main(url: str, pages: int) -> None:
    out: list = []
    threads = [threading.Thread(target=one, args=(url, out)) for _ in range(pages)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out.sort()
    print("seconds until served:", [s for s, _ in out], "| pages that waited in line:", sum(1 for _, q in out if q))


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 8)
