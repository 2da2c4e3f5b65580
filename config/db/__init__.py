"""Database code shared by the apps: the PostgreSQL and SQLite backends, JSON for columns, and the row
helpers of the hand-written hot paths (rows.py)."""
