"""The rules of the base game and Cities & Knights, one module per concept (docs/rules/catan.md)."""
