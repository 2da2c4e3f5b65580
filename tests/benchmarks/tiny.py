"""Tiny mode: every benchmark's code paths in a few seconds, so that none rots unseen.

`make bench-tiny` (a step of `make test`) runs every `bench-*` target of the Makefile with BENCH_TINY=1. A
benchmark in tiny mode puts its tiny arguments before the command line's (argparse keeps the last value, so
BENCH_ARGS still wins), never writes docs/performance.md, and judges no figure against a goal: it fails only
when its code breaks (an exception, a refused request, reconciliation or another correctness check failing).
"""

from __future__ import annotations

import os
import sys
from collections.abc import Sequence

ENV = "BENCH_TINY"


def enabled() -> bool:
    return os.environ.get(ENV, "").strip() not in ("", "0")


def argv(given: Sequence[str] | None, tiny_args: Sequence[str]) -> list[str]:
    """The arguments to parse: `given` (default: the command line's), after `tiny_args` in tiny mode."""
    args = list(sys.argv[1:] if given is None else given)
    if not enabled():
        return args
    print(f"tiny mode ({ENV}=1): {' '.join(tiny_args)}; no figure judged, no docs written", flush=True)
    return [*tiny_args, *args]
