"""What ``serve`` starts when the settings leave it open: sized from the CPUs
and the cgroup CPU quota, read here from cgroup trees laid out as the kernel
lays them out (v2 ``cpu.max``, v1 ``cpu.cfs_quota_us``/``cpu.cfs_period_us``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from labelrender.cli.sizing import MachineCpus, cgroup_quota, size


def tree(root: Path, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)


@pytest.mark.parametrize(("proc_cgroup", "files", "quota"), [
    # v2, no limit anywhere
    ("0::/user.slice/session-1.scope\n", {"user.slice/cpu.max": "max 100000\n"}, None),
    # v2, a container of 2.5 CPUs; its parent allows 4
    ("0::/kubepods/pod1/ctr\n", {"kubepods/pod1/ctr/cpu.max": "250000 100000\n",
                                 "kubepods/pod1/cpu.max": "400000 100000\n"}, 2.5),
    # v2 in a cgroup namespace: the container's cgroup is the root it sees
    ("0::/\n", {"cpu.max": "150000 100000\n"}, 1.5),
    # v1, cpu and cpuacct mounted together; -1 above is no limit
    ("4:memory:/x\n3:cpu,cpuacct:/docker/abc\n",
     {"cpu,cpuacct/docker/abc/cpu.cfs_quota_us": "300000\n",
      "cpu,cpuacct/docker/abc/cpu.cfs_period_us": "100000\n",
      "cpu,cpuacct/cpu.cfs_quota_us": "-1\n", "cpu,cpuacct/cpu.cfs_period_us": "100000\n"},
     3.0),
    # v1 with no quota set (this kind of machine)
    ("1:cpu:/\n", {"cpu/cpu.cfs_quota_us": "-1\n", "cpu/cpu.cfs_period_us": "100000\n"}, None),
    # no cgroup file system at all
    ("0::/\n", {}, None),
])
def test_the_cgroup_quota(tmp_path: Path, proc_cgroup: str, files: dict[str, str],
                          quota: float | None) -> None:
    root = tmp_path / "cgroup"
    root.mkdir()
    tree(root, files)
    (tmp_path / "self-cgroup").write_text(proc_cgroup)
    assert cgroup_quota(root, tmp_path / "self-cgroup") == quota


@pytest.mark.parametrize(("cpus", "api_processes", "workers", "expected"), [
    # Below 4 CPUs: one API process and two workers, what serve always started.
    (MachineCpus(1), None, None, (1, 2)),
    (MachineCpus(2), None, None, (1, 2)),
    (MachineCpus(3), None, None, (1, 2)),
    (MachineCpus(4), None, None, (2, 2)),
    (MachineCpus(16), None, None, (8, 8)),
    (MachineCpus(64, quota=2.5), None, None, (1, 2)),  # a container's quota rules
    (MachineCpus(64, quota=6.0), None, None, (3, 3)),
    (MachineCpus(16), 3, None, (3, 8)),  # a setting wins over the machine
    (MachineCpus(2), 4, 5, (4, 5)),
])
def test_the_sizes(cpus: MachineCpus, api_processes: int | None, workers: int | None,
                   expected: tuple[int, int]) -> None:
    sizing = size(api_processes, workers, 2, cpus)
    assert (sizing.api_processes, sizing.workers) == expected
    assert ("api_processes" in sizing.from_machine) == (api_processes is None)
