"""What the gateway's answers copy unparsed from other stages, said in their types.

Views, feed entries and events are JSON another stage wrote (the projector, the
reducer, the platform process); an answer copies their bytes (a
``msgspec.Raw`` field) rather than decoding and encoding them again on the hot
path. ``stored`` annotates such a field with the type those bytes hold, so the
OpenAPI document generated from the answer's type still describes them.

Two small answers live here too (a game's description, the gateway's
liveness).
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

import msgspec

#: Where the OpenAPI document keeps its components.
SCHEMAS = "#/components/schemas/"
#: The component that describes any game's event (described by hand in ``openapi.py``).
EVENT = "Event"


def stored(doc: type | str, description: str | None = None) -> msgspec.Meta:
    """For a ``msgspec.Raw`` field: the bytes are a ``doc`` as JSON (a type, or a component's name)."""
    name = doc if isinstance(doc, str) else doc.__name__
    return msgspec.Meta(description=description, extra_json_schema={"$ref": SCHEMAS + name})


#: One event as the requester may see it: JSON the reducer wrote, tagged by 'type'.
Event = Annotated[msgspec.Raw, stored(EVENT)]


class Health(msgspec.Struct, kw_only=True):
    """Liveness: the process answers (the store is not consulted)."""

    ok: Literal[True]
    node: str


class GameInfo(msgspec.Struct, kw_only=True):
    key: str
    title: str
    min_seats: int
    max_seats: int
    # Each game's options are a type of its own: promised here only as an object.
    options: Annotated[
        Any,
        msgspec.Meta(
            description="The game's options with their defaults", extra_json_schema={"type": "object"}
        ),
    ]
