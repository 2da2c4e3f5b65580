"""One-table tournaments: quick games and sit-and-gos (docs/rules.md), rounds played to a target, with
tie-break rounds."""
