"""Services send tasks by name without importing `tournaments.tasks`: the name must find the task in a process
that never imported the task modules (a web process; only a worker imports them at start-up)."""

from __future__ import annotations

import subprocess
import sys
import textwrap
from pathlib import Path

from tournaments.live.messaging import dispatch
from tournaments.multi_table import task_names as multi_tasks
from tournaments.single_table import task_names as one_table_tasks

ROOT = Path(__file__).resolve().parents[4]


def test_a_task_name_finds_its_task_in_a_process_that_never_imported_the_tasks() -> None:
    code = (
        "import sys, django; django.setup();"
        "from tournaments.live import dispatch, moves;"
        "assert 'tournaments.tasks' not in sys.modules, 'imported too early: the test proves nothing';"
        f"names = {[dispatch.TURN_CLOCK, dispatch.CLOSE_CLAIMS, dispatch.START_ROUND]!r};"
        "print([dispatch._task(n).name for n in names])"
    )
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == str([dispatch.TURN_CLOCK, dispatch.CLOSE_CLAIMS, dispatch.START_ROUND])


def test_the_tasks_carry_the_names_the_services_send() -> None:
    from tournaments import tasks

    assert tasks.turn_clock.name == dispatch.TURN_CLOCK
    assert tasks.close_claims.name == dispatch.CLOSE_CLAIMS
    assert tasks.start_round.name == dispatch.START_ROUND
    assert tasks.sweep_clocks.name == dispatch.SWEEP_CLOCKS


def test_the_kinds_tasks_keep_their_stable_names() -> None:
    """Each kind names its own tasks (`task_names` beside it); queued messages and beat rows carry the names."""
    from tournaments import tasks

    assert (
        tasks.advance_tournament.name
        == one_table_tasks.ADVANCE_TOURNAMENT
        == "tournaments.advance_tournament"
    )
    assert tasks.table_round_over.name == multi_tasks.TABLE_ROUND_OVER == "tournaments.table_round_over"
    assert tasks.run_tournament_schedule.name == multi_tasks.RUN_TOURNAMENT_SCHEDULE
    assert multi_tasks.RUN_TOURNAMENT_SCHEDULE == "tournaments.run_tournament_schedule"
    assert (
        tasks.create_from_template.name
        == multi_tasks.CREATE_FROM_TEMPLATE
        == "tournaments.create_from_template"
    )


def test_threads_sending_their_first_task_at_once_all_find_it() -> None:
    """A fresh web process whose first round-ending moves arrive on several threads at once: every thread
    finds the task (one of them once met the task modules half-imported by another: NotRegistered, a 500
    after a committed move)."""
    code = textwrap.dedent(
        """
        import sys, threading, django
        django.setup()
        from tournaments.live import dispatch
        assert "tournaments.tasks" not in sys.modules
        barrier = threading.Barrier(8)
        found = []
        def go():
            barrier.wait()
            try:
                found.append(dispatch._task(dispatch.START_ROUND).name)
            except Exception as exc:
                found.append(repr(exc))
        threads = [threading.Thread(target=go) for _ in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        print(sorted(set(found)))
        """
    )
    for _attempt in range(3):
        out = subprocess.run(
            [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120
        )
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip() == str([dispatch.START_ROUND]), out.stdout
