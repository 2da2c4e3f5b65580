"""A move end to end: its body read once (`body`), what it reads under the game's lock (`context`), the
`Idempotency-Key`'s kept answers (`idempotency`) and the pipeline that applies, logs and advances it
(`pipeline`)."""
