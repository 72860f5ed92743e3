"""The four services, each ``python -m services.<name>``: thin shells around shared code."""
