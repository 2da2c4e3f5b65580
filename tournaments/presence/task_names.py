"""The presence job's task name (the beat's schedule names it: config/settings/live.py)."""

FORGET_PRESENCE = "tournaments.forget_presence"
