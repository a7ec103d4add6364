"""Killing a running nesim command once its dataset holds some finished chunks."""

from __future__ import annotations

import json
import signal
import subprocess
import time
from pathlib import Path
from typing import Callable


def kill_after_chunks(cmd: list[str], out: Path, chunks: int, timeout: float = 120,
                      before_kill: Callable[[subprocess.Popen], None] | None = None) -> dict:
    """Starts ``cmd``, SIGKILLs it once ``chunks`` chunks are done, returns the manifest it left.

    ``before_kill(proc)`` is called just before the kill (e.g. to note the process's children)."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            m = json.loads((out / "manifest.json").read_text())
            if sum(c["status"] == "done" for c in m["chunks"]) >= chunks:
                break
        except (OSError, ValueError):
            pass
        time.sleep(0.02)
    if before_kill is not None:
        before_kill(proc)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    return json.loads((out / "manifest.json").read_text())
