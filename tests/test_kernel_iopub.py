"""Issue 54, item 1: the dashboard's kernels never drop an IOPub message a slow server has not
read yet (``dungeon_guilds/app/kernel_launcher.py``; docs/architecture.md, "Render races").

A kernel publishes a burst of comm messages while a subscriber connected to its IOPub port, as
jupyter_server's is, reads nothing for a few seconds (a loaded server); then the subscriber reads
everything. The stock ipykernel's XPUB socket drops what comes while its queue (1,000 messages)
and the TCP buffers are full — the cause of the Lab's lost widget messages; the kernel
the dashboard starts (:class:`~dungeon_guilds.app.kernel_manager.SteadyIOPubKernelManager`)
keeps all of them. The subscriber's own buffers are kept small (a receive high-water mark of 100,
a 4 KB socket buffer) so that the burst overflows quickly.
"""

from __future__ import annotations

import asyncio
import json
import sys
import time

import pytest
import zmq

pytest.importorskip("jupyter_server")

from dungeon_guilds.app.kernel_manager import (PoolKeepingKernelManager, SteadyIOPubKernelManager,  # noqa: E402
                                               steady_cmd)

BURST = 10_000  # comm messages the kernel sends at once (the stock kernel kept ~4,000 of 20,000)
LAG_S = 3  # seconds the subscriber does not read
CODE = f"""
from comm import create_comm
c = create_comm(target_name='dg-burst', data={{}})
for i in range({BURST}):
    c.send({{'i': i}})
"""


def burst_received(manager_class) -> tuple[int, list[int]]:
    """Start a kernel with ``manager_class``, send the burst while a subscriber lags, and return
    (the messages the kernel sent, the ``i`` of each comm message the subscriber received)."""
    return asyncio.run(_burst(manager_class))


async def _burst(manager_class):
    km = manager_class(kernel_name="python3")
    await km.start_kernel()
    kc = km.client()
    kc.start_channels()
    ctx = zmq.Context()
    sub = ctx.socket(zmq.SUB)
    sub.setsockopt(zmq.RCVHWM, 100)
    sub.setsockopt(zmq.RCVBUF, 4096)
    sub.setsockopt(zmq.SUBSCRIBE, b"")
    info = km.get_connection_info()
    sub.connect(f"{info['transport']}://{info['ip']}:{info['iopub_port']}")
    try:
        await kc.wait_for_ready(timeout=60)
        await asyncio.sleep(0.5)  # the subscription reaches the kernel's XPUB socket
        msg_id = kc.execute(CODE)
        time.sleep(LAG_S)  # this subscriber reads nothing meanwhile
        reply = await kc.get_shell_msg(timeout=120)
        assert reply["parent_header"]["msg_id"] == msg_id and reply["content"]["status"] == "ok", reply["content"]
        got = []
        while sub.poll(3000):
            parts = sub.recv_multipart()
            i = parts.index(b"<IDS|MSG>")
            header, content = json.loads(parts[i + 2]), json.loads(parts[i + 5])
            if header["msg_type"] == "comm_msg" and "i" in content["data"]:
                got.append(content["data"]["i"])
        return BURST, got
    finally:
        sub.close(linger=0)
        ctx.term()
        kc.stop_channels()
        await km.shutdown_kernel(now=True)


def test_the_dashboards_kernel_keeps_every_message_of_a_burst_a_lagging_reader_had_not_read():
    sent, got = burst_received(SteadyIOPubKernelManager)
    assert got == list(range(sent)), f"{sent - len(got)} of {sent} lost; the first lost: " \
                                     f"{sorted(set(range(sent)) - set(got))[:3]}"


def test_the_stock_kernel_drops_the_tail_of_the_same_burst():
    """The cause, kept as a test: if ipykernel stops dropping, this fails and the launcher can go."""
    from jupyter_server.services.kernels.kernelmanager import ServerKernelManager

    sent, got = burst_received(ServerKernelManager)
    assert len(got) < sent, "the stock kernel kept every message: ipykernel no longer drops a burst"
    # what it kept came in order; the holes are where its queue was full (the start is always kept:
    # the queue is empty when the burst begins)
    assert got == sorted(got) and got[:1000] == list(range(1000)), got[:5]


def test_the_pool_keeping_manager_starts_every_kernel_through_the_launcher():
    assert PoolKeepingKernelManager().kernel_manager_class == "dungeon_guilds.app.kernel_manager.SteadyIOPubKernelManager"
    cmd = [sys.executable, "-m", "ipykernel_launcher", "-f", "/tmp/k.json"]
    assert steady_cmd(cmd) == [sys.executable, "-m", "dungeon_guilds.app.kernel_launcher", "-f", "/tmp/k.json"]
    other = ["/usr/bin/R", "--slave", "-e", "IRkernel::main()", "--args", "/tmp/k.json"]
    assert steady_cmd(other) == other  # any other kernel as its spec says
    # a Python kernel of another environment (which may not have dungeon_guilds) as its spec says
    elsewhere = ["/opt/conda/envs/other/bin/python", "-m", "ipykernel_launcher", "-f", "/tmp/k.json"]
    assert steady_cmd(elsewhere) == elsewhere
