"""Serving the dashboard: the kernel manager ``voila.json`` names
(``VoilaConfiguration.multi_kernel_manager_class``).

Voila's idle-kernel culler does not know about its pool of preheated kernels. A pool kernel
sits idle by design, so once it has waited longer than ``cull_idle_timeout`` the next cull
check after a page took it shuts it down before the page's websocket connects: the page never
renders (measured with a 5 s timeout), and the pool is gone. :class:`PoolKeepingKernelManager`
remembers the preheated kernels (started with ``VOILA_PREHEAT=True``): while one waits in the
pool it is never culled, and the first cull check after a page took it counts as activity, so
it is culled only after ``cull_idle_timeout`` without a page (``cull_connected`` false: an open
page keeps its kernel). Only the server imports this module; kernels never do.
"""

from __future__ import annotations

from jupyter_server._tz import utcnow
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager


class PoolKeepingKernelManager(AsyncMappingKernelManager):
    """A mapping kernel manager that never culls a preheated kernel waiting in Voila's pool."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._preheated: set[str] = set()

    async def start_kernel(self, *args, **kwargs):
        kernel_id = await super().start_kernel(*args, **kwargs)
        if (kwargs.get("env") or {}).get("VOILA_PREHEAT") == "True":
            self._preheated.add(kernel_id)
        return kernel_id

    def _pooled_kernel_ids(self) -> set[str]:
        ids = set()
        for pool in getattr(self, "_pools", {}).values():  # Voila's preheat pool
            for task in pool:
                if task.done() and not task.cancelled() and task.exception() is None:
                    kernel_id = (task.result() or {}).get("kernel_id")
                    if kernel_id:
                        ids.add(kernel_id)
        return ids

    async def cull_kernel_if_idle(self, kernel_id):
        kernel = self._kernels.get(kernel_id)
        if kernel is not None and kernel_id in self._preheated:
            kernel.last_activity = utcnow()  # waiting in the pool, or just handed to a page
            if kernel_id not in self._pooled_kernel_ids():
                self._preheated.discard(kernel_id)  # from now on, culled like any kernel
            return None
        return await super().cull_kernel_if_idle(kernel_id)

    async def shutdown_kernel(self, kernel_id, *args, **kwargs):
        self._preheated.discard(kernel_id)
        return await super().shutdown_kernel(kernel_id, *args, **kwargs)
