"""What every tournament kind shares: the tournament and its entries, status, events, presence, entry payments,
registration, setup checks, the start, payouts and an admin's actions; the list and detail API."""
