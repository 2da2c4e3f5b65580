"""A game's clocks: arming the turn clock and the claim window (`arming`), what they do when they fire (`runs`)
and the reconnection allowance a disconnected player's turn gets (`reconnect`)."""
