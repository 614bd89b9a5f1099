"""A school's deployment on one machine (issue 52, item 3; docs/school.md): one Redis, N table or
dashboard servers on loopback ports, and nginx in front of them on one address.

    .venv/bin/python tools/school.py --port 8080 --servers 2            # the class tables alone
    .venv/bin/python tools/school.py --port 8080 --servers 2 --dashboard  # the whole dashboard (Voila)

Every server shares the tables through Redis (``--tables-store``; an append-only file fsynced at
every write, in ``--dir``), so any server can serve any seat. nginx (the Debian package) proxies
the websockets (``Upgrade``), passes the client's address (``X-Real-IP``: the servers' per-address
limits see each student, not the proxy) and keeps a browser on one server by a cookie
(``dg_server``: Voila's kernels live in one server's memory), but sends a table's websockets
(``?table=CODE``, which tables.js adds with a shared store) to one server by hashing the code, so
that each move is drawn by one server; a server that stops answering is skipped
(``proxy_next_upstream``), and its pages reconnect to another. Ctrl-C stops everything.
The same layout for a school's IT: compose.yaml.
"""

from __future__ import annotations

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from dungeon_guilds.app.tables.local_redis import LocalRedis, free_port  # noqa: E402

NGINX = shutil.which("nginx") or "/usr/sbin/nginx"

CONF = """\
worker_processes 1;
pid {dir}/nginx.pid;
error_log {dir}/nginx-error.log warn;
events {{ worker_connections 4096; }}
http {{
  access_log off;
  client_body_temp_path {dir}/body; proxy_temp_path {dir}/proxy; fastcgi_temp_path {dir}/fastcgi;
  uwsgi_temp_path {dir}/uwsgi; scgi_temp_path {dir}/scgi;
  map $http_upgrade $connection_upgrade {{ default upgrade; '' close; }}
  # one browser, one server (Voila's kernels live in one server's memory): the dg_server cookie,
  # drawn at the first visit, picks the server; a server down: the next one (consistent hashing)
  map $cookie_dg_server $dg_sticky {{ default $cookie_dg_server; '' $request_id; }}
  upstream school {{
    hash $dg_sticky consistent;
{servers}
  }}
  # a table's websockets (?table=CODE: tables.js names it when the store is shared) all to one
  # server, so that each move is drawn by one process only (issue 52); a socket naming no table
  # (a page about to open or join one) by the cookie. A server down: the next one.
  map $arg_table $dg_table {{ default $arg_table; '' $dg_sticky; }}
  upstream school_tables {{
    hash $dg_table consistent;
{servers}
  }}
  server {{
    listen {listen};
    proxy_http_version 1.1;
    proxy_set_header Upgrade $http_upgrade;
    proxy_set_header Connection $connection_upgrade;
    proxy_set_header Host $http_host;
    proxy_set_header X-Real-IP $remote_addr;
    proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;
    proxy_read_timeout 1h;
    proxy_next_upstream error timeout;
    proxy_connect_timeout 2s;
    location ~ /dungeon-guilds/tables/ws$ {{
      proxy_pass http://school_tables;{debug}
    }}
    location / {{
      proxy_pass http://school;
      add_header Set-Cookie "dg_server=$dg_sticky; Path=/; HttpOnly; SameSite=Lax" always;{debug}
    }}
  }}
}}
"""


def nginx_conf(directory: Path, listen: str, ports: list[int], debug: bool = False) -> Path:
    """nginx's configuration in ``directory`` (its temporary files and log there too); ``debug``:
    each answer names the server that gave it (``X-School-Server``: the tests; not for a school)."""
    servers = "\n".join(f"    server 127.0.0.1:{p} max_fails=1 fail_timeout=5s;" for p in ports)
    path = directory / "nginx.conf"
    debug_line = "\n      add_header X-School-Server $upstream_addr always;" if debug else ""
    path.write_text(CONF.format(dir=directory, listen=listen, servers=servers, debug=debug_line))
    return path


def start_nginx(directory: Path, listen: str, ports: list[int], debug: bool = False) -> subprocess.Popen:
    """nginx in the foreground (stopped with the others), its files in ``directory``."""
    conf = nginx_conf(directory, listen, ports, debug)
    proc = subprocess.Popen([NGINX, "-p", str(directory), "-c", str(conf), "-g", "daemon off;"],
                            stdout=subprocess.DEVNULL, stderr=open(directory / "nginx.out", "w"))
    return proc


def server_command(port: int, store: str, own: Path, dashboard: bool) -> list[str]:
    """One server: the class tables alone (``table_server --behind-proxy``), or the dashboard."""
    if dashboard:
        return [sys.executable, "-m", "dungeon_guilds", "dashboard", "--port", str(port)]
    return [sys.executable, "-m", "dungeon_guilds.app.table_server", "--port", str(port), "--tables-store", store,
            "--tables-dir", str(own), "--behind-proxy"]


def start_servers(n: int, store: str, directory: Path, dashboard: bool = False,
                  teacher: str | None = None) -> tuple[list[int], list[subprocess.Popen]]:
    """``n`` servers on free loopback ports, the same teacher code for all; answered once up."""
    env = {**os.environ, "DUNGEON_GUILDS_TABLES_STORE": store, "PYTHONUNBUFFERED": "1"}
    if teacher:
        env["DUNGEON_GUILDS_TEACHER_CODE"] = teacher
    ports, procs = [free_port() for _ in range(n)], []
    for i, port in enumerate(ports):
        own = directory / f"server{i}"
        own.mkdir(exist_ok=True)
        env_i = {**env, "DUNGEON_GUILDS_TABLES_DIR": str(own)}
        procs.append(subprocess.Popen(server_command(port, store, own, dashboard), env=env_i, start_new_session=True,
                                      stdout=open(own / "server.log", "w"), stderr=subprocess.STDOUT))
    for port in ports:
        wait_for(f"http://127.0.0.1:{port}/dungeon-guilds/tables", 120 if dashboard else 60)
    return ports, procs


def wait_for(url: str, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            urllib.request.urlopen(url, timeout=2).read()
            return
        except OSError:
            if time.monotonic() > deadline:
                raise TimeoutError(f"{url} did not answer within {timeout} s") from None
            time.sleep(0.2)


def stop(procs: list[subprocess.Popen]) -> None:
    for proc in procs:
        if proc.poll() is None:
            try:
                os.killpg(proc.pid, signal.SIGTERM)  # a server and its workers (their own session)
            except (ProcessLookupError, PermissionError):
                proc.terminate()  # nginx (its own workers follow)
    for proc in procs:
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--port", type=int, default=8080, help="the one address's port (nginx)")
    parser.add_argument("--host", default="0.0.0.0", help="nginx listens here (0.0.0.0: the school's network)")
    parser.add_argument("--servers", type=int, default=2)
    parser.add_argument("--dashboard", action="store_true", help="dashboard servers (Voila), not the tables alone")
    parser.add_argument("--dir", default=None, help="Redis's append-only file and the servers' files (default: a temporary folder)")
    args = parser.parse_args()
    directory = Path(args.dir or tempfile.mkdtemp(prefix="dg-school-"))
    (directory / "redis").mkdir(parents=True, exist_ok=True)
    with LocalRedis(directory / "redis") as redis:
        ports, procs = start_servers(args.servers, redis.url, directory, args.dashboard)
        procs.append(start_nginx(directory, f"{args.host}:{args.port}", ports))
        print(f"School: {args.servers} servers (ports {ports}), Redis {redis.url}, nginx on {args.host}:{args.port}; "
              f"files in {directory}. Ctrl-C stops everything.", flush=True)
        try:
            while all(p.poll() is None for p in procs[-1:]):
                time.sleep(1)
        except KeyboardInterrupt:
            pass
        finally:
            stop(procs)


if __name__ == "__main__":
    main()
