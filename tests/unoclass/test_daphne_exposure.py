"""daphne has no request-header timeout (Twisted's 60 s idle timeout restarts with each byte
a client trickles): it must never face clients itself (issue 32 §12). `make run` binds the loopback
address only, and the guide's unit listens on a unix socket that only nginx reaches."""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _daphne_args(line: str) -> list[str]:
    words = shlex.split(line)
    return words[next(i for i, word in enumerate(words) if word.endswith("daphne")) + 1 :]


def test_make_run_binds_the_loopback_address_only() -> None:
    env = {key: value for key, value in os.environ.items() if key not in {"HOST", "PORT"}}
    done = subprocess.run(
        ["make", "-n", "run"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    lines = [line for line in done.stdout.splitlines() if "bin/daphne" in line]
    assert len(lines) == 1, done.stdout
    args = _daphne_args(lines[0])
    assert args[args.index("-b") + 1] == "127.0.0.1"
    assert not {"-e", "--endpoint", "-u", "--fd"} & set(args)


def test_the_guides_unit_listens_on_a_unix_socket_only() -> None:
    guide = (ROOT / "docs" / "deploy.md").read_text()
    starts = re.findall(r"^ExecStart=(.*daphne.*)$", guide, flags=re.MULTILINE)
    assert starts
    for start in starts:
        args = _daphne_args(start)
        assert "-u" in args and args[args.index("-u") + 1].startswith("/run/unoclass/")
        assert not {"-b", "--bind", "-p", "--port", "-e", "--endpoint"} & set(args)
    assert "never faces clients itself" in guide
