"""The image is built from the lock file (requirements.lock): every dependency of pyproject.toml and
its build backend pinned to one version with hashes, and the Dockerfile installing from it with
``--require-hashes --no-deps`` (nothing resolved anew), then the package with no index; its
HEALTHCHECK asks the bot's own web server."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
LOCK = (ROOT / "requirements.lock").read_text()
DOCKERFILE = (ROOT / "Dockerfile").read_text()


def _name(requirement: str) -> str:
    return re.sub(r"[-_.]+", "-", re.split(r"[<>=!~\[; ]", requirement, maxsplit=1)[0]).lower()


def _pinned() -> dict[str, str]:
    return {_name(m[1]): m[2] for m in re.finditer(r"^([A-Za-z0-9_.-]+)==(\S+) \\$", LOCK, re.MULTILINE)}


def test_the_lock_pins_every_dependency_and_the_build_backend_with_hashes() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    wanted = {_name(r) for r in [*project["project"]["dependencies"], *project["build-system"]["requires"]]}
    pinned = _pinned()
    assert wanted <= set(pinned), f"not in requirements.lock (renew it): {sorted(wanted - set(pinned))}"
    entries = re.split(r"\n(?=[A-Za-z])", LOCK.split("\n", 6)[-1])
    assert all("--hash=sha256:" in e for e in entries if "==" in e), "every pin has its hashes"


def test_the_dockerfile_installs_the_lock_with_hashes_and_resolves_nothing() -> None:
    installs = [line.strip() for line in DOCKERFILE.splitlines() if "pip install" in line]
    assert any("--require-hashes" in i and "--no-deps" in i and "requirements.lock" in i for i in installs)
    assert all("--no-deps" in i for i in installs), installs
    assert all("--require-hashes" in i or "--no-index" in i for i in installs), installs
    assert re.search(r"^HEALTHCHECK .*bot\.web\.check", DOCKERFILE, re.MULTILINE)
