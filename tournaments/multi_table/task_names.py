"""The multi-table tournaments' Celery tasks by their stable names (defined in `tournaments.tasks`, sent through
`live.messaging.dispatch`). The names are public: queued messages and the beat's rows carry them, so they never change."""

from __future__ import annotations

# A table's job after its round (`progress.after_table_round`): busts, levels, balancing, the next deal.
TABLE_ROUND_OVER = "tournaments.table_round_over"
# The beat's job opening and starting the scheduled tournaments (`schedule.run_schedule`).
RUN_TOURNAMENT_SCHEDULE = "tournaments.run_tournament_schedule"
# A recurring template's beat row: the next tournament from it (`recurring.create_from_template`).
CREATE_FROM_TEMPLATE = "tournaments.create_from_template"
# The next step of a batched start (`start.seat_next_batch`): tables seated, or first deals scheduled.
START_BATCH = "tournaments.multi_start_batch"
