"""Issue 52, item 3: nginx in front of a school's servers passes the Host the browser sent, port
included (``$http_host``). With ``$host`` (no port) and nginx on a port other than 80, a server
that checks a websocket's ``Origin`` against ``Host`` — Jupyter's kernel websockets, under which
the dashboard draws its widgets — refused every one ("Blocking Cross Origin WebSocket Attempt",
403; found by ``benchmarks/bench_school_arrival.py``: 0 of 30 pages drew). A tornado websocket
checks origins the same way, behind the school's own nginx configuration."""

from __future__ import annotations

import asyncio
import importlib.util
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import tornado.httpclient
import tornado.websocket

from dungeon_guilds.app.tables import local_redis

SCHOOL = Path(__file__).resolve().parents[2] / "tools" / "school.py"
spec = importlib.util.spec_from_file_location("school", SCHOOL)
school = importlib.util.module_from_spec(spec)
spec.loader.exec_module(school)
pytestmark = pytest.mark.skipif(not (shutil.which("nginx") or os.path.exists(school.NGINX)),
                                reason="nginx is not installed (apt-get install nginx)")

# a server whose websocket keeps tornado's own origin check (Origin's host:port must be Host)
APP = textwrap.dedent("""
    import asyncio, sys, tornado.web, tornado.websocket
    class Echo(tornado.websocket.WebSocketHandler):
        def on_message(self, message):
            self.write_message(message)
    class Page(tornado.web.RequestHandler):
        def get(self):
            self.write("up")
    async def main():
        tornado.web.Application([(r"/dungeon-guilds/tables", Page), (r"/api/ws", Echo)]).listen(
            int(sys.argv[1]), "127.0.0.1")
        await asyncio.Event().wait()
    asyncio.run(main())
""")


def test_a_websocket_with_the_pages_origin_passes_nginx_on_any_port(tmp_path):
    app_port, port = local_redis.free_port(), local_redis.free_port()
    procs = [subprocess.Popen([sys.executable, "-c", APP, str(app_port)], start_new_session=True)]
    try:
        school.wait_for(f"http://127.0.0.1:{app_port}/dungeon-guilds/tables", 20)
        procs.append(school.start_nginx(tmp_path, f"127.0.0.1:{port}", [app_port]))
        school.wait_for(f"http://127.0.0.1:{port}/dungeon-guilds/tables", 20)

        async def talk() -> str:
            request = tornado.httpclient.HTTPRequest(f"ws://127.0.0.1:{port}/api/ws",
                                                     headers={"Origin": f"http://127.0.0.1:{port}"})
            ws = await tornado.websocket.websocket_connect(request)
            ws.write_message("hello")
            answer = await ws.read_message()
            ws.close()
            return answer

        assert asyncio.run(talk()) == "hello"  # with $host: HTTP 403 (the origin's port is not the Host's)
    finally:
        school.stop(procs)
