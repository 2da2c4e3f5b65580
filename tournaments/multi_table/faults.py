"""Fault-injection points for the crash tests (docs/operations.md "Fault-injection points").

A service calls `pause_point("name")` inside a transaction it wants a test to interrupt. Normally that is a
no-op (one environment lookup). When the process was started with `RAMINO_FAULT_PAUSE_AT=name`, the call writes
the file named by `RAMINO_FAULT_MARKER` (if set: the test waits for it) and then sleeps `PAUSE_SECONDS`, so that
the test can SIGKILL the worker while the transaction is open and its locks are held. Nothing else changes:
after the sleep the work goes on as usual, so a forgotten variable only slows a process down.

The names in use (each inside the transaction named):
- `multi.round_end`: the after-round job of a multi-table tournament, after the busts are written;
- `multi.balance`: the same job, after the balancing moves are written;
- `multi.payout`: the finish, after the prizes are paid and before the stacks are retired;
- `multi.shared_bust`: a busting job on the shared path (`quiet`), after its busts, counters and event are
  written and its deal scheduled, holding the tournament's row `FOR NO KEY UPDATE`;
- `multi.group_plan`: the after-round job's plan within its table group (`quiet`'s plan beside other groups', or
  `balance.rebalance`'s), after its moves (and break) and the histograms are written, holding the tournament's
  counters (its row `FOR NO KEY UPDATE`, or locked by the exclusive job), the group's plans' lock or the
  tournament's, and its group's waiting games;
- `multi.start_batch`: a batched start's step (`start.seat_next_batch`), after its tables are seated and its
  counters written, holding the tournament's row lock.
"""

from __future__ import annotations

import os
import time
from pathlib import Path

PAUSE_AT_ENV = "RAMINO_FAULT_PAUSE_AT"
MARKER_ENV = "RAMINO_FAULT_MARKER"
PAUSE_SECONDS = 60.0

ROUND_END = "multi.round_end"
BALANCE = "multi.balance"
PAYOUT = "multi.payout"
SHARED_BUST = "multi.shared_bust"
START_BATCH = "multi.start_batch"
GROUP_PLAN = "multi.group_plan"
POINTS = (ROUND_END, BALANCE, PAYOUT, SHARED_BUST, START_BATCH, GROUP_PLAN)


def pause_point(name: str) -> None:
    """Pause here for `PAUSE_SECONDS` when this process was told to (`RAMINO_FAULT_PAUSE_AT == name`)."""
    if os.environ.get(PAUSE_AT_ENV) != name:
        return
    marker = os.environ.get(MARKER_ENV)
    if marker:
        Path(marker).write_text(f"{name} {os.getpid()}\n")
    time.sleep(PAUSE_SECONDS)
