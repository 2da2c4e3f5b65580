"""The ledger's services, one module per job; callers import the module they need.

- `accounts`: wallets, the house's accounts and the other named accounts (seat stacks, prize pools), opened
  on first use.
- `postings`: the only way chips move: transfers, moves, reversals and adjustments, idempotent by key;
  one call posts several (`post_transfers`), their accounts locked at once. `shapes`: what a posting is made
  of, and PostgreSQL's statements for it.
- `reconciliation`: the full check of the ledger, run now or queued for a worker, and its recorded run.
"""
