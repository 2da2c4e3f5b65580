"""`manage.py flush` on the smoke run's SQLite database, once the stack has stopped: every table empties,
the append-only triggers of the ledger and the game logs are there before and after, and the emptied
database takes the demo data again (whose ledger rows those triggers then still guard)."""

from __future__ import annotations

import sqlite3
import subprocess
import sys
from contextlib import closing

from .stack import ROOT, Stack, StackFailed

GUARDED = ("ledger_transfer", "ledger_entry", "tournaments_movelog", "tournaments_gameevent")
EXPECTED_TRIGGERS = {f"{table}_no_{op}" for table in GUARDED for op in ("update", "delete")}


def run(stack: Stack, log: object) -> None:
    _expect_triggers(stack, "after the play")
    _expect(_count(stack, "tournaments_movelog") > 0, "the play logged no moves")
    _manage(stack, "flush", "--noinput")
    for table in (*GUARDED, "auth_user", "tournaments_table", "tournaments_game"):
        _expect(_count(stack, table) == 0, f"flush left rows in {table}")
    _expect_triggers(stack, "after flush")
    _manage(stack, "load_demo")
    _expect(_count(stack, "ledger_entry") > 0, "load_demo posted nothing after flush")
    with closing(sqlite3.connect(stack.database)) as db:
        try:
            db.execute("DELETE FROM ledger_entry")
        except sqlite3.IntegrityError as exc:
            _expect("immutable" in str(exc), f"unexpected refusal: {exc}")
        else:
            raise StackFailed("a ledger entry could be deleted after flush")


def _manage(stack: Stack, *args: str) -> None:
    done = subprocess.run(
        [sys.executable, "manage.py", *args],
        cwd=ROOT,
        env=stack.env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    if done.returncode != 0:
        raise StackFailed(
            f"manage.py {' '.join(args)} failed ({done.returncode}):\n{done.stdout}{done.stderr}"
        )


def _count(stack: Stack, table: str) -> int:
    with closing(sqlite3.connect(stack.database)) as db:
        return int(db.execute(f'SELECT COUNT(*) FROM "{table}"').fetchone()[0])


def _expect_triggers(stack: Stack, when: str) -> None:
    with closing(sqlite3.connect(stack.database)) as db:
        found = {name for (name,) in db.execute("SELECT name FROM sqlite_master WHERE type = 'trigger'")}
    missing = EXPECTED_TRIGGERS - found
    _expect(not missing, f"append-only triggers missing {when}: {sorted(missing)}")


def _expect(condition: bool, message: str) -> None:
    if not condition:
        raise StackFailed(message)
