"""The dashboard's kernel: ipykernel, whose IOPub socket never drops a message (issue 54, item 1).

ipykernel publishes everything a page sees (every widget's ``comm_open`` and state, every
output) on a ZMQ ``XPUB`` socket. Such a socket never waits for a slow reader: once its queue to
a subscriber holds its high-water mark (ZMQ's default, 1,000 messages) and the TCP buffers
behind it are full, it **drops** what comes next, silently. A widget app built in one go sends
over a thousand messages within a second (the Lab's design workshop: ~1,620); on a loaded
classroom server, where jupyter_server reads the kernel's messages late, the tail of such a burst
was lost — the page then waits for a widget whose ``comm_open`` never comes ("widget model not
found", a panel that never shows; docs/architecture.md, "Render races").

With the IOPub socket's send high-water mark at 0 (no limit) a message waits in the kernel's
queue until the server reads it; a reader that lags slows nothing and loses nothing. ZMQ applies
the option only to a socket created after it is set, so it is set on the context just before
``IPKernelApp.init_iopub`` creates that socket, and restored after.

Who calls what: :class:`~dungeon_guilds.app.kernel_manager.SteadyIOPubKernelManager` starts
``python -m dungeon_guilds.app.kernel_launcher -f {connection_file}`` where the kernel spec says
``python -m ipykernel_launcher`` (every kernel of the dashboard's and the lessons' Voila server,
through ``voila.json``'s kernel manager). Running it does what ``ipykernel_launcher`` does.
"""

from __future__ import annotations

import sys
from pathlib import Path

import zmq
from ipykernel.kernelapp import IPKernelApp

__all__ = ["SteadyIOPubKernelApp", "main"]


class SteadyIOPubKernelApp(IPKernelApp):
    """ipykernel's application with an IOPub socket that queues instead of dropping."""

    def init_iopub(self, context):
        # a context's default socket options (pyzmq's ``Context.sockopts``) apply to the sockets it
        # creates afterwards: the IOPub XPUB socket, created next, keeps every message
        before = context.sockopts.get(zmq.SNDHWM)
        context.setsockopt(zmq.SNDHWM, 0)
        try:
            super().init_iopub(context)
        finally:
            if before is None:
                context.sockopts.pop(zmq.SNDHWM, None)
            else:
                context.setsockopt(zmq.SNDHWM, before)


def main() -> None:
    """Start the kernel as ``ipykernel_launcher`` does (the working folder off ``sys.path`` while
    the kernel loads; IPython puts it back)."""
    if sys.path and (sys.path[0] == "" or Path(sys.path[0]) == Path.cwd()):
        del sys.path[0]
    SteadyIOPubKernelApp.launch_instance()


if __name__ == "__main__":
    main()
