"""Ziggurat's shared library: pure game rules, the kernel contract, and the I/O adapters."""
