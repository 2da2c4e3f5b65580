"""Live play: tables, seats, games, rounds, moves, clocks and the Celery messages that drive them. It knows no
tournament kind: what a kind of table decides reaches it through its table policy (`policy`)."""
