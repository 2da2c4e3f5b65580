"""Development tooling: simulators, in-process drivers and seeded randomness, for management commands, tests and
benchmarks. Nothing in the apps imports it (tests/test_architecture.py): it patches modules, captures the task
messages the services send and runs their bodies in order, which no service may do.

- `multi_table_simulation.py`: a multi-table tournament played in one process (seeded secrets, the captured
  dispatch, every task body in order), for `manage.py simulate_tournament` and the tests;
- `multi_table_driver.py`: a tournament driven in-process to its end (docs/tournaments.md);
- `simulate_multi.py`: `simulate_tournament --kind multi`'s body;
- `integrity_simulation.py`: private tables of bots, some colluding, played through the engine (no database),
  for `manage.py simulate_integrity` and the integrity tests.
"""
