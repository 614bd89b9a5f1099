"""The classroom server's kernel settings: the kernel cap, the preheated pool's size and the
pacing of the work of executing the notebook, read from the environment; and whether the
machine is busy. The kernel manager that applies them is
:class:`dungeon_guilds.app.kernel_manager.PoolKeepingKernelManager` (``voila.json`` names it).

Importing this module imports neither jupyter_server nor Voila.
"""

from __future__ import annotations

import os

__all__ = ["CLASS_POOL", "IN_LINE_ARG", "MAX_KERNELS", "MAX_KERNELS_ENV", "PAGES_AT_ONCE", "POOL_ENV",
           "QUEUE_RETRY_S", "REFILLS_AT_ONCE", "REFILL_BUSY_S", "REFILL_QUIET_S", "RESERVATION_TIMEOUT", "WAITING_S", "machine_busy", "max_kernels_default",
           "pool_size_from_env"]

MAX_KERNELS = 40  # default kernel cap: ~100-170 MB a kernel, sized for a 2-core / 24 GiB machine
MAX_KERNELS_ENV = "DUNGEON_GUILDS_MAX_KERNELS"
RESERVATION_TIMEOUT = 120.0  # seconds an admitted page may take to start its kernel
POOL_ENV = "DUNGEON_GUILDS_POOL"  # the preheated pool's size (make dashboard POOL=N)
CLASS_POOL = 30  # make dashboard's pool: a class of 30 takes a ready kernel each
PAGES_AT_ONCE = 2  # pages beyond the pool that execute the notebook at the same time
REFILLS_AT_ONCE = 2  # pool kernels started (and executing the notebook) at the same time
REFILL_QUIET_S = 15.0  # a refill starts only once no page has been served for this long
REFILL_BUSY_S = 120.0  # ... and, this long after the last page, only when the CPUs are not busy
QUEUE_RETRY_S = 3  # a page in line asks again this often
IN_LINE_ARG = "dg-in-line"  # the query argument of a page in line asking again (not a new page)
#: issue 40: a page counts as waiting in line for this long after it last asked
WAITING_S = QUEUE_RETRY_S + 1.0


def machine_busy() -> bool:
    """Whether the CPUs are busy: the 1-minute load average is at least their number."""
    try:
        return os.getloadavg()[0] >= (os.cpu_count() or 1)
    except OSError:  # no load average on this system: never busy
        return False


def _whole_number_from_env(name: str, minimum: int, words: str) -> int | None:
    """``$name`` as a whole number, None when unset or empty; ValueError naming the variable
    when it is not a whole number or is below ``minimum`` (``words`` says the bound)."""
    raw = os.environ.get(name, "").strip()
    if not raw:
        return None
    try:
        value = int(raw)
    except ValueError:
        raise ValueError(f"{name}={raw!r}: not a whole number") from None
    if value < minimum:
        raise ValueError(f"{name}={raw!r}: must be {words}")
    return value


def max_kernels_default() -> int:
    """The kernel cap when none is configured: ``$DUNGEON_GUILDS_MAX_KERNELS``, else
    :data:`MAX_KERNELS` (ValueError naming the variable if it is not a whole number ≥ 1)."""
    value = _whole_number_from_env(MAX_KERNELS_ENV, 1, "at least 1")
    return MAX_KERNELS if value is None else value


def pool_size_from_env() -> int | None:
    """``$DUNGEON_GUILDS_POOL`` (the preheated pool's size, 0 turns it off), or None when unset
    (``voila.json``'s ``default_pool_size`` applies); ValueError naming the variable if it is
    not a whole number ≥ 0."""
    return _whole_number_from_env(POOL_ENV, 0, "0 or more")
