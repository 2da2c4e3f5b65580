"""The ledger's services, one module per job; callers import the module they need.

- `accounts`: wallets, the house's accounts and the other named accounts (seat stacks, prize pools), opened
  on first use.
- `postings`: the only way chips move: transfers, moves, reversals and adjustments, idempotent by key.
- `reconciliation`: the full check of the ledger, run now or queued for a worker, and its recorded run.
"""
