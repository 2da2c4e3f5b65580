"""Tickets (docs/rules.md "Tickets"): entries to one tournament, or to the next tournament created from one
recurring template, held as a chip type of their own in the player's wallet for that chip type; granted by an
admin or won in a satellite, spent at registration, returned on unregistration, converted to chips."""
