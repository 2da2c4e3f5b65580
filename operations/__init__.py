"""Operations: the running system in numbers and in its logs (docs/operations.md, "Metrics" and "Logs").

`operations.metrics` and `operations.request_id` import nothing of the project: every service emits through them.
The rest (the `/metrics` view, the scrape-time gauges read from the database, the Celery signal handlers, the
request id middleware and the JSON log formatter) sits above the apps it reads."""
