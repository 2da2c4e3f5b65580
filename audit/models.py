"""No tables of its own (the audit reads the ledger and the tables). The module exists because Django sends
`post_migrate` only for apps with a models module, and that signal keeps the staff group (audit.apps)."""
