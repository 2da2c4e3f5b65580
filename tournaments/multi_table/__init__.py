"""Multi-table tournaments: scheduled and recurring, seated, balanced and broken between rounds, late entry and
re-entry, round-for-round at the bubble, the finish. The pure planning algorithms are in `planning`."""
