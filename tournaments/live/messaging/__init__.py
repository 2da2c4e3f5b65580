"""What live play tells others: Celery messages sent by their stable names (`dispatch`), the long-polls'
wake-ups (`wakeups`) and the live room's socket wake-ups (`fanout`)."""
