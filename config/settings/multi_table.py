"""Multi-table tournaments' settings read from the environment as base.py reads its own (docs/operations.md)."""

import environ

__all__ = ["RAMINO_START_BATCH_TABLES", "RAMINO_TABLE_GROUP_TABLES"]

env = environ.Env()

# A multi-table tournament needing more tables than this starts in batches of this many tables, each its own
# transaction, then deals its tables in batches of as many games (docs/tournaments.md "The batched start").
RAMINO_START_BATCH_TABLES = max(1, env.int("RAMINO_START_BATCH_TABLES", default=500))
# A multi-table tournament with more tables than this splits them into groups of this many (by table id): a
# table's seating plan reads and locks only its group's tables while the whole field stays balanced
# (docs/tournaments.md "Table groups"); at most this many tables, one group: no groups.
RAMINO_TABLE_GROUP_TABLES = max(2, env.int("RAMINO_TABLE_GROUP_TABLES", default=250))
