"""What the host gives the bot (`bot.service.host`): the CPUs it may use, by affinity and cgroup
quota, and a process's resident memory; read from fake cgroup and proc files."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bot.service.host import cpu_quota, rss_mib, usable_cpus


@pytest.mark.parametrize(
    ("text", "cpus"),
    [("max 100000", None), ("100000 100000", 1), ("150000 100000", 2), ("200000 100000", 2),
     ("50000 100000", 1), ("800000 100000", 8), ("garbage", None)],
)  # fmt: skip
def test_a_cgroup_v2_quota_is_read_in_whole_cpus_rounded_up(
    tmp_path: Path, text: str, cpus: int | None
) -> None:
    (tmp_path / "cpu.max").write_text(text + "\n")
    assert cpu_quota(tmp_path) == cpus


@pytest.mark.parametrize("folder", ["cpu", "cpu,cpuacct", ""])
def test_a_cgroup_v1_quota_is_read_from_its_quota_and_period(tmp_path: Path, folder: str) -> None:
    where = tmp_path / folder
    where.mkdir(exist_ok=True)
    (where / "cpu.cfs_period_us").write_text("100000\n")
    (where / "cpu.cfs_quota_us").write_text("250000\n")
    assert cpu_quota(tmp_path) == 3
    (where / "cpu.cfs_quota_us").write_text("-1\n")
    assert cpu_quota(tmp_path) is None


def test_no_cgroup_files_mean_no_quota(tmp_path: Path) -> None:
    assert cpu_quota(tmp_path) is None


def test_the_usable_cpus_are_the_fewer_of_the_affinity_and_the_quota(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2, 3}, raising=False)
    assert usable_cpus(tmp_path) == 4
    (tmp_path / "cpu.max").write_text("150000 100000\n")
    assert usable_cpus(tmp_path) == 2
    (tmp_path / "cpu.max").write_text("1600000 100000\n")
    assert usable_cpus(tmp_path) == 4, "never more than the affinity"
    (tmp_path / "cpu.max").write_text("1000 100000\n")
    assert usable_cpus(tmp_path) == 1, "at least one"


def test_a_process_resident_memory_is_read_from_its_status(tmp_path: Path) -> None:
    (tmp_path / "42").mkdir()
    (tmp_path / "42" / "status").write_text("Name:\tpython\nVmPeak:\t 900000 kB\nVmRSS:\t  204800 kB\n")
    assert rss_mib(42, tmp_path) == 200.0
    assert rss_mib(43, tmp_path) is None, "a process that has ended"


def test_this_process_resident_memory_is_some_mib() -> None:
    rss = rss_mib(os.getpid())
    assert rss is not None and 5 < rss < 4096
