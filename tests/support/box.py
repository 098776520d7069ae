"""The built wheel, installed outside the checkout, and its `unoclass serve` as a process.

The wheel test (tests/e2e/box) and the class benchmark (bench/class_box.py) both run the app
as a teacher would: `make dist`'s wheel in a fresh virtual environment of a temporary folder,
its `unoclass` command, a data folder of its own, nothing of the checkout on the path.
"""

from __future__ import annotations

import re
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import TracebackType
from typing import IO

from tests.support.live import BASE_DIR, child_env
from tests.support.waiting import Deadline, WaitTimeout

PUPIL_URL = re.compile(r"http://[\d.]+:\d+/join/")
SETUP_LINK = re.compile(r"http://[\d.]+:\d+/signup/\?invite=\S+")
TEACHER_URL = re.compile(r"Les enseignants ouvrent (http://[\d.]+:\d+/)")


def build_wheel(out: Path) -> Path:
    """Build the sdist and, from it, the wheel into `out` (as `make dist`); return the wheel."""
    subprocess.run(
        [sys.executable, "-m", "build", "--outdir", str(out), str(BASE_DIR)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    (wheel,) = out.glob("unoclass-*.whl")
    return wheel


def installed(wheel: Path, folder: Path) -> Path:
    """Install `wheel` into a new virtual environment in `folder`; return its bin/ folder."""
    subprocess.run([sys.executable, "-m", "venv", str(folder)], check=True, timeout=120)
    python = folder / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "--quiet", str(wheel)],
        check=True,
        capture_output=True,
        timeout=600,
    )
    return folder / "bin"


def box_env(**values: str) -> dict[str, str]:
    """Return the environment of a teacher's terminal: no Django variable, no checkout, French."""
    env = child_env(LANG="fr_FR.UTF-8", **values)
    for name in ("PYTHONPATH", "LANGUAGE", "LC_ALL", "LC_MESSAGES", "VIRTUAL_ENV"):
        env.pop(name, None)
    return env


def unoclass(
    bin_dir: Path, data: Path, *args: str, timeout: float = 180
) -> subprocess.CompletedProcess[str]:
    """Run `unoclass --data DATA ARGS` to its end, from the data folder's parent."""
    return subprocess.run(
        [str(bin_dir / "unoclass"), "--data", str(data), *args],
        cwd=data.parent,
        env=box_env(),
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=timeout,
    )


class BoxServe:
    """`unoclass --data DATA serve ARGS` as a process: what it printed, stopped by Ctrl+C."""

    def __init__(self, bin_dir: Path, data: Path, *args: str, start_seconds: float = 120) -> None:
        self.log_path = data.parent / f"serve-{time.monotonic_ns()}.log"
        self._log: IO[bytes] = open(self.log_path, "wb")  # noqa: SIM115 (closed by stop)
        self.process = subprocess.Popen(
            [str(bin_dir / "unoclass"), "--data", str(data), "serve", *args],
            cwd=data.parent,
            env=box_env(PYTHONUNBUFFERED="1"),
            stdin=subprocess.DEVNULL,
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )
        deadline = Deadline(start_seconds, "unoclass serve to say where it serves")
        while "Ctrl+C" not in self.output():
            if self.process.poll() is not None:
                raise RuntimeError(f"unoclass serve ended:\n{self.output()[-4000:]}")
            deadline.check(self.output()[-2000:])
            time.sleep(0.1)
        found = TEACHER_URL.search(self.output())
        assert found is not None, self.output()
        self.teacher_url = found.group(1)
        self._wait_accepting(deadline)

    def _wait_accepting(self, deadline: Deadline) -> None:
        import urllib.error
        import urllib.request

        while True:
            try:
                with urllib.request.urlopen(self.teacher_url + "healthz", timeout=5):
                    return
            except (urllib.error.URLError, ConnectionError, TimeoutError) as error:
                if self.process.poll() is not None:
                    raise RuntimeError(f"unoclass serve ended:\n{self.output()}") from error
                if deadline.expired():
                    raise WaitTimeout(f"{deadline.what}: {error}") from error
                time.sleep(0.1)

    def output(self) -> str:
        """Return everything the command printed so far."""
        return self.log_path.read_text(errors="replace")

    def pupil_url(self) -> str:
        """Return the address the command printed for pupils."""
        found = PUPIL_URL.search(self.output())
        assert found is not None, self.output()
        return found.group(0)

    def setup_link(self) -> str | None:
        """Return the first teacher's set-up link, if the command printed one."""
        found = SETUP_LINK.search(self.output())
        return found.group(0) if found else None

    def stop(self) -> int:
        """Press Ctrl+C (SIGINT) and wait for the end (SIGKILL after 30 s); return its status."""
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGINT)
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=10)
        self._log.close()
        return int(self.process.returncode)

    def __enter__(self) -> BoxServe:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.stop()
