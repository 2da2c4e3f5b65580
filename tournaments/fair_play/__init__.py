"""Fair play for quitters (RULES §7 "Abandonment", docs/rules.md "Fair play"): abandonments recorded per player,
and the bar on new seats that repeated ones earn."""
