"""A deployment's world builder and shell scripts, each in a fresh fork of one warm process.

`LiveApp.world` and `LiveApp.script` each ran a new Python: 0.5 to 0.8 s of interpreter,
Django set-up and imports before the first query, a hundred times in the browser tests. The
fork server (`python -m tests.support.forker`, started in the deployment's environment) sets
Django up and imports the world builder once, then forks a child for each request: the child
runs `manage.py <args>` or the world builder exactly as a new process would (its own database
and cache connections, its own module state: nothing is carried from one request to the next),
with its standard input, output and error in files the client reads back.

The protocol, one JSON object a line: the server says {"ready": pid} once set up; each request
{"argv": [...], "stdin": path | null, "stdout": path, "stderr": path} is answered with
{"code": exit code} once its child has exited. End of input stops the server.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import subprocess
import sys
import tempfile
import threading
import traceback
from pathlib import Path
from typing import IO, Any

BASE_DIR = Path(__file__).resolve().parents[2]


def _child(request: dict[str, Any]) -> int:
    """Run one request in the forked child; return its exit code."""
    stdin = os.open(request["stdin"] or os.devnull, os.O_RDONLY)
    stdout = os.open(request["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    stderr = os.open(request["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    for fd, target in ((stdin, 0), (stdout, 1), (stderr, 2)):
        os.dup2(fd, target)
        os.close(fd)
    sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115 (the process's own)
    sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
    sys.stderr = open(2, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
    argv = list(request["argv"])
    code = 0
    try:
        if argv[:1] == ["world"]:
            from tests.support import world

            world.main()
        else:
            import manage

            sys.argv = ["manage.py", *argv]
            manage.main()
    except SystemExit as leaving:
        code = leaving.code if isinstance(leaving.code, int) else (0 if leaving.code is None else 1)
    except BaseException:  # noqa: BLE001 (reported as a new process would: traceback, exit 1)
        traceback.print_exc()
        code = 1
    sys.stdout.flush()
    sys.stderr.flush()
    return code


def serve() -> None:
    """Set Django up, then answer requests from standard input until it ends."""
    import django
    from django.db import connections

    django.setup()
    import manage  # noqa: F401 (imported once, for every child)
    from tests.support import world

    world.warm()

    requests = os.fdopen(os.dup(0), "rb", buffering=0)
    answers = os.fdopen(os.dup(1), "w", encoding="utf-8")
    null = os.open(os.devnull, os.O_RDWR)
    os.dup2(null, 0)  # the requests and answers only through their own descriptors:
    os.dup2(2, 1)  # a stray print of the server's goes to its log
    print(json.dumps({"ready": os.getpid()}), file=answers, flush=True)
    for line in iter(requests.readline, b""):
        request = json.loads(line)
        connections.close_all()
        pid = os.fork()
        if pid == 0:
            os._exit(_child(request))
        _, status = os.waitpid(pid, 0)
        print(json.dumps({"code": os.waitstatus_to_exitcode(status)}), file=answers, flush=True)


class Forker:
    """The client: one fork server in an environment, asked one request at a time."""

    def __init__(self, env: dict[str, str], log_path: Path) -> None:
        self.env = dict(env)
        self._lock = threading.Lock()
        self._log: IO[bytes] = open(log_path, "ab")  # noqa: SIM115 (closed by close)
        self._dir = Path(tempfile.mkdtemp(prefix="unoclass-fork-"))
        self.process = subprocess.Popen(
            [sys.executable, "-m", "tests.support.forker"],
            cwd=BASE_DIR,
            env=self.env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=self._log,
            start_new_session=True,
        )
        self.ready = self._answer(60) is not None

    def _answer(self, timeout: float) -> dict[str, Any] | None:
        """Read the server's next line within `timeout` seconds (None: it died or is silent)."""
        stdout = self.process.stdout
        assert stdout is not None
        readable, _, _ = select.select([stdout], [], [], timeout)
        line = stdout.readline() if readable else b""
        return dict(json.loads(line)) if line else None

    def run(
        self, argv: list[str], *, input: str | None = None, timeout: float = 120
    ) -> subprocess.CompletedProcess[str]:
        """Run `manage.py <argv>` (or `world` for the world builder) in a fresh fork."""
        with self._lock:
            paths = {name: self._dir / name for name in ("stdin", "stdout", "stderr")}
            if input is not None:
                paths["stdin"].write_text(input, encoding="utf-8")
            request = {
                "argv": argv,
                "stdin": str(paths["stdin"]) if input is not None else None,
                "stdout": str(paths["stdout"]),
                "stderr": str(paths["stderr"]),
            }
            assert self.process.stdin is not None
            self.process.stdin.write(json.dumps(request).encode() + b"\n")
            self.process.stdin.flush()
            answer = self._answer(timeout)
            if answer is None:
                self.close()
                raise subprocess.TimeoutExpired(["forker", *argv], timeout)
            return subprocess.CompletedProcess(
                argv,
                int(answer["code"]),
                paths["stdout"].read_text(encoding="utf-8", errors="replace"),
                paths["stderr"].read_text(encoding="utf-8", errors="replace"),
            )

    def alive(self) -> bool:
        """Tell whether the server still runs."""
        return self.ready and self.process.poll() is None

    def close(self) -> None:
        """Stop the server and any child it runs (its own process group)."""
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, 9)
            self.process.wait(timeout=10)
        for stream in (self.process.stdin, self.process.stdout):
            if stream is not None:
                stream.close()
        self._log.close()
        for path in self._dir.iterdir():
            path.unlink(missing_ok=True)
        self._dir.rmdir()


if __name__ == "__main__":
    serve()
