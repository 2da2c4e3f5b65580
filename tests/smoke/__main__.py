"""`make smoke` (= python -m tests.smoke): start the embedded stack, play, stop it, start again. Exit 0 or fail
loudly with the stack's log; every process started is stopped either way."""

from __future__ import annotations

import re
import shutil
import sys
import tempfile
import time
from pathlib import Path

from . import flush, scenario
from .stack import Stack, StackFailed

LOG_TAIL_LINES = 150


def main() -> int:
    began = time.monotonic()

    def log(message: str) -> None:
        print(f"[smoke {time.monotonic() - began:6.1f}s] {message}", flush=True)

    data_dir = Path(tempfile.mkdtemp(prefix="ramino-smoke-"))
    stack = Stack(data_dir)
    failure: BaseException | None = None
    try:
        log(f"make run in {data_dir} on {stack.base}")
        stack.start()
        log("web, worker and beat are up")
        scenario.run(stack, log)
        _expect_beat_reached_worker(stack)
        log("beat's clock sweeper ran on the worker")
    except (StackFailed, OSError, ValueError, KeyError) as exc:
        failure = exc
    finally:
        stack.stop()
    if failure is None and stack.leftovers:
        failure = StackFailed(f"processes outlived the stop: {stack.leftovers}")
    if failure is None and (errors := stack.errors()):
        failure = StackFailed("the stack logged errors:\n" + "\n".join(errors))
    if failure is None:
        try:
            flush.run(stack, log)
            log(
                "flush refused by the triggers, nothing changed; a new database (migrate, load_demo) keeps them"
            )
        except (StackFailed, OSError) as exc:
            failure = exc
    if failure is not None:
        lines = stack.log().splitlines()[-LOG_TAIL_LINES:]
        print(
            "\n".join(["", f"--- last {len(lines)} lines of {stack.log_path} ---", *lines]), file=sys.stderr
        )
        print(f"\nSMOKE FAILED: {type(failure).__name__}: {failure}", file=sys.stderr)
        print(f"(data kept in {data_dir})", file=sys.stderr)
        return 1
    shutil.rmtree(data_dir, ignore_errors=True)
    log("smoke test passed")
    return 0


# The sweeper is due every 30 seconds (its first run may come a whole interval after beat starts); a fast
# machine plays the scenario in less than that, so wait for it rather than look once.
BEAT_WAIT_SECONDS = 75.0


def _expect_beat_reached_worker(stack: Stack) -> None:
    deadline = time.monotonic() + BEAT_WAIT_SECONDS
    while not re.search(r"Task tournaments\.sweep_clocks\[[^\]]+\] succeeded", stack.log()):
        if time.monotonic() > deadline:
            raise StackFailed("no tournaments.sweep_clocks task ran on the worker: is beat sending?")
        time.sleep(1.0)


if __name__ == "__main__":
    sys.exit(main())
