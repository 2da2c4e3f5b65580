"""Cool-off and self-exclusion (docs/rules.md "Responsible play", "Breaks"): the record, the gate's check, what a
break does to the player's seats and registrations, the player's and staff's API."""
