"""Responsible play (docs/rules.md, "Responsible play"): limits on stakes, net loss and time; reality checks;
cool-off and self-exclusion; age and account verification. Every stake passes `stakes.refuse_stake`."""
