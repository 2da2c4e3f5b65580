"""Satellites (docs/rules.md "Satellites"): one-table or multi-table tournaments whose prizes are tickets to a
target tournament (or to the next tournament of a recurring template); a satellite's target may be a satellite
(steps). The pure arithmetic is `prizes`; paying and stopping are `services`."""
