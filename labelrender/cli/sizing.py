"""How many API processes and workers ``serve`` starts when the settings leave
it open: sized from the CPUs this process may use.

The CPUs are the fewer of the cores it may run on (its affinity mask) and the
cgroup CPU quota when one is set (cgroup v2 ``cpu.max``, v1
``cpu.cfs_quota_us`` / ``cpu.cfs_period_us``, a container's ``--cpus``),
rounded up: a quota of 1.5 CPUs is two processes' worth of run time, each
throttled.

The defaults, for ``c`` CPUs:

- **API processes: 1 below 4 CPUs, else c / 2.** One uncached request costs
  an API process about a sixth of what the render costs; a cached hit is all
  API. With fewer than 4 CPUs the render processes already ask for every core,
  so a second API process only adds a process to schedule (and its own engine
  sandbox), and one request at a time is answered no faster; from 4 CPUs up,
  half of them can each run an event loop, which is what cached hits need.
- **Workers: c / 2, at least 2**, each with ``render_processes`` (2) render
  processes: one render process a CPU. Two workers on 2 CPUs are what
  ``serve`` has always started.
"""

from __future__ import annotations

import argparse
import math
import os
from dataclasses import dataclass
from pathlib import Path

CGROUP_ROOT = Path("/sys/fs/cgroup")
PROC_CGROUP = Path("/proc/self/cgroup")
SEVERAL_API_FROM_CPUS = 4
MIN_WORKERS = 2


@dataclass(frozen=True)
class MachineCpus:
    """The cores this process may run on, and its cgroup's CPU quota (in CPUs)."""

    cores: int
    quota: float | None = None

    @property
    def usable(self) -> int:
        if self.quota is None:
            return self.cores
        return max(1, min(self.cores, math.ceil(self.quota)))

    def describe(self) -> str:
        if self.quota is None:
            return f"{self.cores} CPUs"
        return f"{self.usable} CPUs ({self.cores} cores, cgroup quota {self.quota:g})"


@dataclass(frozen=True)
class Sizing:
    """What ``serve`` starts, and which of it came from the machine."""

    api_processes: int
    workers: int
    render_processes: int
    cpus: MachineCpus
    from_machine: frozenset[str]  # "api_processes", "workers": defaults, not settings

    def describe(self) -> str:
        def source(name: str) -> str:
            return " (from the CPUs)" if name in self.from_machine else ""

        return (f"{self.api_processes} API process{'es' if self.api_processes > 1 else ''}"
                f"{source('api_processes')}, {self.workers} workers{source('workers')} x "
                f"{self.render_processes} render processes; {self.cpus.describe()}")


def default_api_processes(cpus: int) -> int:
    return 1 if cpus < SEVERAL_API_FROM_CPUS else cpus // 2


def default_workers(cpus: int) -> int:
    return max(MIN_WORKERS, cpus // 2)


def size(api_processes: int | None, workers: int | None, render_processes: int,
         cpus: MachineCpus) -> Sizing:
    """The counts: each one set wins; one left unset is sized from ``cpus``."""
    from_machine = frozenset(name for name, value in (("api_processes", api_processes),
                                                      ("workers", workers)) if value is None)
    usable = cpus.usable
    return Sizing(api_processes or default_api_processes(usable),
                  workers or default_workers(usable), render_processes, cpus, from_machine)


def machine_cpus(root: Path = CGROUP_ROOT, proc_cgroup: Path = PROC_CGROUP) -> MachineCpus:
    """This process's cores and cgroup CPU quota (Linux; elsewhere the core count)."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return MachineCpus(max(1, cores), cgroup_quota(root, proc_cgroup))


def cgroup_quota(root: Path = CGROUP_ROOT, proc_cgroup: Path = PROC_CGROUP) -> float | None:
    """The CPU quota of this process's cgroup, in CPUs; None when none is set (or
    there is no cgroup file system). The tightest of the cgroup and its
    ancestors, as the kernel enforces every level."""
    try:
        lines = proc_cgroup.read_text().splitlines()
    except OSError:
        return None
    quotas: list[float] = []
    for line in lines:
        hierarchy, _, rest = line.partition(":")
        controllers, _, path = rest.partition(":")
        if hierarchy == "0" and controllers == "":
            quotas += _v2_quotas(root, path)
        elif "cpu" in controllers.split(","):
            quotas += _v1_quotas(root / controllers, path)
    return min(quotas) if quotas else None


def _levels(mount: Path, path: str) -> list[Path]:
    """The cgroup's folder and its ancestors' under ``mount``; in a container the
    path names the host's hierarchy, which the container sees as its root."""
    parts = [p for p in path.split("/") if p]
    levels = [mount.joinpath(*parts[:n]) for n in range(len(parts), -1, -1)]
    return [level for level in levels if level.is_dir()]


def _v2_quotas(root: Path, path: str) -> list[float]:
    quotas = []
    for level in _levels(root, path):
        fields = _read(level / "cpu.max").split()
        if len(fields) == 2 and fields[0] != "max":
            quotas.append(_ratio(fields[0], fields[1]))
    return [q for q in quotas if q > 0]


def _v1_quotas(mount: Path, path: str) -> list[float]:
    quotas = []
    for level in _levels(mount, path):
        quota, period = _read(level / "cpu.cfs_quota_us"), _read(level / "cpu.cfs_period_us")
        if quota and period and not quota.startswith("-"):
            quotas.append(_ratio(quota, period))
    return [q for q in quotas if q > 0]


def _ratio(quota: str, period: str) -> float:
    try:
        return int(quota) / int(period) if int(period) > 0 else 0.0
    except ValueError:
        return 0.0


def _read(path: Path) -> str:
    try:
        return path.read_text().strip()
    except OSError:
        return ""


def sizing_options(p: argparse.ArgumentParser) -> None:
    """``serve``'s flags for what it starts; each wins over its variable."""
    p.add_argument("--api-processes", type=int, default=None, metavar="N",
                   help="API processes sharing the port (LABELRENDER_API_PROCESSES; "
                        "default: 1 below 4 CPUs, else half the CPUs)")
    p.add_argument("--workers", type=int, default=None, metavar="N",
                   help="render worker processes (LABELRENDER_WORKERS; default: half the "
                        "CPUs, at least 2)")
