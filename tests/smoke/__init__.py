"""The smoke test of the embedded default: `make run`'s stack (SQLite, the filesystem broker, a worker and
beat) started in a throwaway directory on a free port and played over HTTP. `make smoke`; not pytest's (the
suite runs on PostgreSQL only, tests/conftest.py), so nothing here touches the test database."""
