"""Settings of the tournament formats (docs/rules.md "Rebuys and the add-on"), read from the environment as
base.py reads its own."""

import environ

__all__ = ["RAMINO_REBUY_WAIT_SECONDS"]

env = environ.Env()

# The shortest pause before a table's next deal while one of its players, busted in the rebuy period, may still
# rebuy (the usual pause between rounds when longer).
RAMINO_REBUY_WAIT_SECONDS = env.float("RAMINO_REBUY_WAIT_SECONDS", default=20.0)
