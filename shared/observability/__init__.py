"""Logging, metrics and health, configured the same way in every service."""
