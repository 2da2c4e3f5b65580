"""Presence at a game and the reconnection allowance (docs/rules.md "Presence and reconnection")."""
