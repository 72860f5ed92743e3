"""Seat tokens: the client holds the token, the platform keeps only its hash."""

from __future__ import annotations

import hashlib
import hmac
import secrets


def new_token() -> str:
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def seat_of(token_hash_: str, token_hashes: tuple[str, ...]) -> int | None:
    """The seat a token hash belongs to, compared in constant time."""
    found = None
    for seat, known in enumerate(token_hashes):
        if hmac.compare_digest(known, token_hash_):
            found = seat
    return found
