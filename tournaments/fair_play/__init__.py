"""Fair play for quitters (docs/rules.md, "Fair play (abandonment)"): abandonments recorded per player, and the bar
on new seats that repeated ones earn."""
