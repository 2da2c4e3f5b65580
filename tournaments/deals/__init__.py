"""The final-table deal (docs/rules.md "The final-table deal"): the pure maths (`icm`), the offer and its
answers (`models`, `services`), what the API reads (`selectors`), its HTTP views and its expiry task."""
