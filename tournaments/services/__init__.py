"""Services of the tables and live play (HackSoft style: keyword-only functions, explicit transactions)."""
