"""The socket's side of presence (docs/rules.md "Presence and reconnection", docs/api.md "Live socket"): a socket
subscribed to a game holds a lease on the player's presence there (tournaments/presence/), renews it while it
stays, ends it when it leaves or closes, and tells its client who is connected at each of its games."""
