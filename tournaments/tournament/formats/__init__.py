"""The options of the tournament formats (docs/rules.md "Rebuys and the add-on", "Progressive knockout"): their check and their API fields."""
