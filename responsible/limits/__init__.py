"""A player's limits (docs/rules.md "Responsible play"): stakes and net loss per day, week and month, and time seated
per day; a cut applies at once, a raise or a removal after `RAMINO_LIMIT_RAISE_DAYS`; checked at the stake gate."""
