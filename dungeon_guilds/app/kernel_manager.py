"""The kernel manager ``voila.json`` names (``VoilaConfiguration.multi_kernel_manager_class``).

Voila's idle-kernel
culler does not know about its pool of preheated kernels. A pool kernel sits idle by design, so
once it has waited longer than ``cull_idle_timeout`` the next cull check after a page took it
shuts it down before the page's websocket connects: the page never renders (measured with a 5 s
timeout), and the pool is gone. :class:`PoolKeepingKernelManager` remembers the preheated kernels
(started with ``VOILA_PREHEAT=True``): while one waits in the pool it is never culled, and the
first cull check after a page took it counts as activity, so it is culled only after
``cull_idle_timeout`` without a page (``cull_connected`` false: an open page keeps its kernel).
It also counts kernels for the dashboard's cap (``max_kernels``, default
``$DUNGEON_GUILDS_MAX_KERNELS`` or 40, :mod:`~dungeon_guilds.app.kernels`): :meth:`admit_page` tells the page handler of
:mod:`dungeon_guilds.app.voila_app` whether one more page fits, counting live kernels, kernels
starting and pages admitted whose kernel has not started yet (a page that finds a pool kernel
ready always takes it). It paces the work of executing the notebook: a page takes only a pool
kernel that has executed the notebook (:meth:`ready_pool_size` replaces Voila's
``get_pool_size``); pool kernels start ``refills_at_once`` at a time, not while a page beyond the
pool executes the notebook, within ``refill_quiet`` seconds of the last page (or within
``refill_busy`` seconds of it while the CPUs are busy), or at the cap; at
most ``pages_at_once`` pages beyond the pool execute the notebook at once (the page handler asks
:meth:`page_slot_free` and counts ``pages_executing``; the others are told they are in line).
The pool follows the class (issue 40): each page that arrives while no pool kernel is ready
(:meth:`grow_pool`, called by the page handler; a page in line asking again does not count)
grows the pool by one kernel, up to ``max_kernels``, and while any page waits in line
(:meth:`note_waiting`) pool kernels start at once, ``refills_at_once`` at a time, without waiting
for the class to stop arriving: the pages in line take them as they get ready. The pool keeps its
grown size (the next class of that size finds it ready); the log line "Kernel pool grows to N"
says so and the console tells the teacher how to prepare that many from the start.
The pool's starting size: ``$DUNGEON_GUILDS_POOL`` (:func:`~dungeon_guilds.app.kernels.pool_size_from_env`;
``make dashboard POOL=N``, default :data:`~dungeon_guilds.app.kernels.CLASS_POOL`), else
``voila.json``'s ``default_pool_size``.

Each kernel it starts is a :class:`SteadyIOPubKernelManager`'s: ipykernel started through
:mod:`~dungeon_guilds.app.kernel_launcher`, whose IOPub socket queues what a slow server has not
read yet instead of dropping it (issue 54: the lost widget messages of a loaded server).

It subclasses jupyter_server's ``AsyncMappingKernelManager``, so this module imports
jupyter_server: only Voila's server process (and the tests of the manager) import it.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time

from jupyter_server._tz import utcnow
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager, ServerKernelManager
from traitlets import Bool, Float, Integer, default

from . import kernels
from .kernels import (MAX_KERNELS, MAX_KERNELS_ENV, PAGES_AT_ONCE, REFILL_BUSY_S, REFILL_QUIET_S,
                      REFILLS_AT_ONCE, RESERVATION_TIMEOUT, WAITING_S, max_kernels_default)

__all__ = ["PoolKeepingKernelManager", "SteadyIOPubKernelManager"]

IPYKERNEL = ["-m", "ipykernel_launcher"]
STEADY = ["-m", "dungeon_guilds.app.kernel_launcher"]


class SteadyIOPubKernelManager(ServerKernelManager):
    """One kernel: a Python kernel of this server's own interpreter whose spec starts ``-m
    ipykernel_launcher`` is started with ``-m dungeon_guilds.app.kernel_launcher`` instead (the
    same kernel, its IOPub socket never dropping a message); any other kernel as its spec says."""

    def format_kernel_cmd(self, extra_arguments=None):
        cmd = super().format_kernel_cmd(extra_arguments)
        return steady_cmd(cmd)


def steady_cmd(cmd: list[str], python: str = sys.executable) -> list[str]:
    """``cmd`` with ipykernel's launcher replaced by :mod:`~dungeon_guilds.app.kernel_launcher`
    when ``cmd`` runs ``python`` (this server's interpreter, which has dungeon_guilds; a kernel of
    another Python — a teacher's other environment in JupyterLab — may not have it, and is
    started as its spec says)."""
    if not cmd or os.path.abspath(cmd[0]) != os.path.abspath(python):
        return list(cmd)
    for i in range(len(cmd) - 1):
        if cmd[i:i + 2] == IPYKERNEL:
            return cmd[:i] + STEADY + cmd[i + 2:]
    return list(cmd)


class PoolKeepingKernelManager(AsyncMappingKernelManager):
    """A mapping kernel manager that never culls a preheated kernel waiting in Voila's pool,
    counts its kernels for the dashboard's cap (:meth:`admit_page`) and paces the work of
    executing the notebook (:meth:`_paced_initialize`, :meth:`page_slot_free`)."""

    max_kernels = Integer(config=True, help="At most this many live kernels (pages and the "
                          "preheated pool); a page beyond it gets HTTP 503. Default: "
                          f"${MAX_KERNELS_ENV}, else {MAX_KERNELS}.")
    pages_at_once = Integer(PAGES_AT_ONCE, config=True, help="Pages that start their own kernel "
                            "(the pool had none ready) and execute the notebook at the same "
                            "time; a page beyond them is told to wait and retries.")
    refills_at_once = Integer(REFILLS_AT_ONCE, config=True, help="Pool kernels started and "
                              "executing the notebook at the same time; a refill also waits "
                              "while a page executes the notebook and while the cap is reached.")
    refill_quiet = Float(REFILL_QUIET_S, config=True, help="Seconds without a new page before "
                         "the pool refills (the browsers of a class arriving need the CPU).")
    refill_busy = Float(REFILL_BUSY_S, config=True, help="For this many seconds after the last "
                        "page, a refill also waits while the machine is busy (1-minute load "
                        "average at least its number of CPUs): the pages that just arrived are "
                        "still being drawn and their kernels answer them.")

    pool_grows = Bool(True, config=True, help="Grow the preheated pool by one kernel (up to "
                      "max_kernels) for each page that finds none ready, and start pool kernels at "
                      "once while pages wait in line. A pool of size 0 never grows.")

    @default("kernel_manager_class")
    def _steady_kernel_manager_class(self):
        return "dungeon_guilds.app.kernel_manager.SteadyIOPubKernelManager"

    @default("max_kernels")
    def _max_kernels_default(self):
        return max_kernels_default()

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._preheated: set[str] = set()
        self._starting = 0  # start_kernel calls under way
        self._reserved: list[float] = []  # when each admitted page was admitted, until its kernel starts
        self.pages_executing = 0  # pages executing the notebook in their own kernel (the handler counts)
        self._refilling = 0
        self._closing = False
        self.last_page_at = float("-inf")  # when the handler last admitted a page (monotonic)
        self._waiting: list[float] = []  # when pages in line last asked (monotonic)
        if hasattr(self, "_initialize"):  # Voila's pooling subclass: pace its pool kernels
            self._voila_initialize = self._initialize
            self._initialize = self._paced_initialize
            self.get_pool_size = self.ready_pool_size

    # ---------------------------------------------------------------- the pool
    def _pool_tasks(self) -> list:
        return [task for pool in getattr(self, "_pools", {}).values() for task in pool]

    def ready_pool_size(self, notebook_name: str) -> int:
        """Pool kernels that have executed the notebook (what Voila's handler asks, so a page
        takes a pool kernel only when one is ready); the ready ones move to the front of the
        pool, which Voila's ``get_rendered_notebook`` takes from."""
        pool = getattr(self, "_pools", {}).get(notebook_name, [])
        ready = [t for t in pool if t.done() and not t.cancelled() and t.exception() is None]
        pool[:] = ready + [t for t in pool if t not in ready]
        return len(ready)

    def ready_kernels(self) -> int:
        return sum(self.ready_pool_size(name) for name in list(getattr(self, "_pools", {})))

    async def _paced_initialize(self, notebook_name, kernel_id=None, **kwargs):
        """Voila's ``_initialize`` for a pool kernel, paced: at most ``refills_at_once`` at a
        time, none while the cap is reached, and unless a page waits in line none while a page
        executes the notebook, within ``refill_quiet`` seconds of the last page served (a class
        arriving) or within ``refill_busy`` seconds of it while the machine is busy
        (:func:`machine_busy`); the pool
        task ends once the kernel has executed the whole notebook (so it is "ready")."""
        if kernel_id is not None:  # a restart: not paced
            return await self._voila_initialize(notebook_name, kernel_id, **kwargs)
        while self._refilling >= self.refills_at_once or self.kernel_count() >= self.max_kernels or (
                not self.pages_waiting() and self._class_arriving()):
            if self._closing:
                raise RuntimeError("the server is shutting down: no pool kernel started")
            await asyncio.sleep(0.25)
        self._refilling += 1
        try:
            content = await self._voila_initialize(notebook_name, None, **kwargs)
            await asyncio.wait([content["task"]])  # the notebook executed (errors: the page shows them)
        finally:
            self._refilling -= 1
        return content

    def _class_arriving(self) -> bool:
        """A refill holds back (no page waits in line) while a page executes the notebook, within
        ``refill_quiet`` seconds of the last page, or within ``refill_busy`` of it on a busy machine."""
        since = time.monotonic() - self.last_page_at
        return bool(self.pages_executing or since < self.refill_quiet
                    or (since < self.refill_busy and kernels.machine_busy()))

    def pool_target(self) -> int:
        """The pool's size now (Voila's ``kernel_pools_config``)."""
        config = getattr(self, "kernel_pools_config", None) or {}  # none without Voila's preheating
        return int(config.get("default", {}).get("pool_size", 0))

    def grow_pool(self) -> bool:
        """One more pool kernel (a page arrived with none ready), up to ``max_kernels``; starts
        it through Voila's ``fill_if_needed``. False when it does not grow (turned off, a pool of
        0, or the cap reached: a page turned away with a 503 grows nothing)."""
        if not hasattr(self, "fill_if_needed"):  # Voila without its pool (preheat_kernel false)
            return False
        size = self.pool_target()
        if (not self.pool_grows or size <= 0 or size >= self.max_kernels or not hasattr(self, "fill_if_needed")
                or self.kernel_count() >= self.max_kernels):  # at the cap: a pool kernel could not start
            return False
        config = {name: {**entry, "pool_size": size + 1} if entry.get("pool_size") == size else entry
                  for name, entry in self.kernel_pools_config.items()}
        self.kernel_pools_config = config
        self.log.info("Kernel pool grows to %d kernels (pages arrived faster than it refilled; at most %d)",
                      size + 1, self.max_kernels)
        for name in list(getattr(self, "_pools", {})):
            self.fill_if_needed(delay=0, notebook_name=name)
        return True

    def note_waiting(self) -> None:
        """A page was told it is in line (or asked again): pool kernels start at once meanwhile."""
        self._waiting.append(time.monotonic())

    def pages_waiting(self) -> int:
        """How many times pages asked to be served in the last :data:`WAITING_S` seconds while
        in line (about one each)."""
        now = time.monotonic()
        self._waiting = [t for t in self._waiting if now - t < WAITING_S]
        return len(self._waiting)

    # ---------------------------------------------------------------- pages
    def kernel_count(self) -> int:
        """Live kernels, kernels starting, and pages admitted whose kernel has not started."""
        now = time.monotonic()
        self._reserved = [t for t in self._reserved if now - t < RESERVATION_TIMEOUT]
        return len(self.list_kernel_ids()) + self._starting + len(self._reserved)

    def pool_warming(self) -> bool:
        """True while a pool kernel has started and executes the notebook: it is ready soon, so
        a page that finds the cap reached waits in line for it instead of hearing the class is full."""
        return self._refilling > 0

    def page_slot_free(self) -> bool:
        """True while fewer than ``pages_at_once`` pages execute the notebook."""
        return self.pages_executing < self.pages_at_once

    def page_waits(self, in_line: bool) -> bool:
        """Whether a page that finds no pool kernel ready is told it is in line: while
        ``pages_at_once`` pages execute the notebook, and, for a page already in line asking
        again (``in_line``), while a pool kernel executes it. That kernel started for the pages
        in line and is ready before the page's own execution would be, so the page waits for it
        instead of executing the notebook itself as soon as a slot frees (which a loaded machine
        made it do when the page before it finished first: issue 54's clean clone)."""
        return not self.page_slot_free() or (in_line and self.pool_warming())

    def admit_page(self) -> bool:
        """True if a pool kernel is ready (the page takes it; its refill waits for room under
        the cap), else True (and a kernel reserved for the page) while :meth:`kernel_count`
        is below ``max_kernels``: the count never passes the cap."""
        self.last_page_at = time.monotonic()
        if self.ready_kernels():
            return True
        if self.kernel_count() >= self.max_kernels:
            return False
        self._reserved.append(time.monotonic())
        return True

    async def start_kernel(self, *args, **kwargs):
        preheat = (kwargs.get("env") or {}).get("VOILA_PREHEAT") == "True"
        if self._reserved and not preheat:
            self._reserved.pop(0)
        self._starting += 1
        try:
            kernel_id = await super().start_kernel(*args, **kwargs)
        finally:
            self._starting -= 1
        if preheat:
            self._preheated.add(kernel_id)
        return kernel_id

    def _pooled_kernel_ids(self) -> set[str]:
        ids = set()
        for task in self._pool_tasks():
            if task.done() and not task.cancelled() and task.exception() is None:
                kernel_id = (task.result() or {}).get("kernel_id")
                if kernel_id:
                    ids.add(kernel_id)
        return ids

    async def cull_kernel_if_idle(self, kernel_id):
        kernel = self._kernels.get(kernel_id)
        if kernel is not None and kernel_id in self._preheated:
            kernel.last_activity = utcnow()  # waiting in the pool, or just handed to a page
            if kernel_id not in self._pooled_kernel_ids() and not self._executing_in_pool(kernel_id):
                self._preheated.discard(kernel_id)  # from now on, culled like any kernel
            return None
        return await super().cull_kernel_if_idle(kernel_id)

    def _executing_in_pool(self, kernel_id) -> bool:
        """True while a paced pool task still executes the notebook in ``kernel_id``."""
        return any(not t.done() for t in self._pool_tasks()) and self._refilling > 0

    async def shutdown_kernel(self, kernel_id, *args, **kwargs):
        self._preheated.discard(kernel_id)
        return await super().shutdown_kernel(kernel_id, *args, **kwargs)

    async def shutdown_all(self, *args, **kwargs):
        self._closing = True  # pool tasks still waiting give up instead of starting kernels
        return await super().shutdown_all(*args, **kwargs)
