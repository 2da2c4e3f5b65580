"""Age and account verification (docs/rules.md "Responsible play", "Age and verification"): the date of birth given
at registration, staff's record of a checked document, and the gate that keeps an account not verified in time to
practice tables."""
