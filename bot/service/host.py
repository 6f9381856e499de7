"""What the host gives the bot: the CPUs it may really use and the memory a process holds.

A container is often allowed less CPU than its machine has: Docker's ``--cpus=1.5`` on an
8-core host leaves the affinity at 8 CPUs and sets a cgroup quota instead. Workers sized by the
core count would then take eight workers' memory for a CPU and a half, so `usable_cpus` takes
the smallest of the affinity and the quota (rounded up: 1.5 CPUs make 2 workers).

The quota is read from the cgroup files, v2 (``cpu.max``: ``"max 100000"`` for none,
``"150000 100000"`` for 1.5 CPUs) or v1 (``cpu.cfs_quota_us`` and ``cpu.cfs_period_us``, -1 for
none), at the root of the cgroup file system, which is the container's own cgroup inside a
container. The paths are arguments, so tests give their own files.

>>> import pathlib, tempfile
>>> root = pathlib.Path(tempfile.mkdtemp())
>>> _ = (root / "cpu.max").write_text("150000 100000\\n")
>>> cpu_quota(root)
2
>>> _ = (root / "cpu.max").write_text("max 100000\\n")
>>> cpu_quota(root) is None
True
"""

from __future__ import annotations

import math
import os
from pathlib import Path

CGROUP = Path("/sys/fs/cgroup")
PROC = Path("/proc")


def cpu_quota(root: Path = CGROUP) -> int | None:
    """The CPUs the cgroup's quota allows, rounded up and at least 1 (None: no quota, or no
    cgroup file to read: not Linux, or a file system not mounted)."""
    v2 = _read(root / "cpu.max")
    if v2 is not None:
        quota, _, period = v2.partition(" ")
        return _cpus(quota, period)
    for v1 in (root / "cpu", root / "cpu,cpuacct", root):
        quota_text = _read(v1 / "cpu.cfs_quota_us")
        period_text = _read(v1 / "cpu.cfs_period_us")
        if quota_text is not None and period_text is not None:
            return _cpus(quota_text, period_text)
    return None


def _cpus(quota: str, period: str) -> int | None:
    """``quota`` over ``period`` (microseconds) in whole CPUs, rounded up; None for no quota
    (``max``, ``-1``) or what cannot be read as one."""
    try:
        q, p = int(quota), int(period)
    except ValueError:
        return None
    if q <= 0 or p <= 0:
        return None
    return max(1, math.ceil(q / p))


def _read(path: Path) -> str | None:
    try:
        return path.read_text().strip()
    except OSError:
        return None


def usable_cpus(root: Path = CGROUP) -> int:
    """The CPUs this process may run on: its affinity (the machine's count where that is
    unknown), fewer where the cgroup's quota allows fewer (`cpu_quota`); at least 1."""
    try:
        affinity = len(os.sched_getaffinity(0)) or 1
    except AttributeError:  # not on every platform
        affinity = os.cpu_count() or 1
    quota = cpu_quota(root)
    return affinity if quota is None else max(1, min(affinity, quota))


def rss_mib(pid: int, proc: Path = PROC) -> float | None:
    """The resident memory of process ``pid`` in MiB (``VmRSS`` of its ``status``); None where it
    cannot be read (the process has ended, or no ``/proc``). Reading it takes some microseconds."""
    status = _read(proc / str(pid) / "status")
    for line in (status or "").splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return None
