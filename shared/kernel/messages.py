"""Base classes for every command, event, state and view struct.

Every game declares its own base classes by subclassing these, and every
concrete command or event sets an explicit, namespaced tag
(``"<game>.<snake_name>"``) so that renaming a class never changes the wire
format of stored events.
"""

from __future__ import annotations

from typing import Any, dataclass_transform

import msgspec


@dataclass_transform(kw_only_default=True, frozen_default=True, field_specifiers=(msgspec.field,))
class _KwOnlyMeta(msgspec.StructMeta):
    """Defaults ``kw_only=True``: msgspec does not inherit that option, and
    positional construction of wide event structs is a bug magnet.

    ``dataclass_transform`` tells type checkers what msgspec does at run
    time: keyword-only fields, and frozen inherited from the frozen bases.
    """

    def __new__(mcls, name: str, bases: tuple[type, ...], ns: dict[str, Any], **kw: Any) -> Any:
        kw.setdefault("kw_only", True)
        return super().__new__(mcls, name, bases, ns, **kw)


class Record(msgspec.Struct, metaclass=_KwOnlyMeta, frozen=True):
    """A frozen, keyword-only struct: state pieces, views, options."""


class Message(msgspec.Struct, metaclass=_KwOnlyMeta, frozen=True, tag_field="type"):
    """Base of every tagged command and event.

    Stored events must keep decoding after the code moves on: new fields get
    defaults, types never change, and a breaking change gets a new tag.
    """


class Command(Message, forbid_unknown_fields=True):
    """Inbound commands come from untrusted clients: unknown fields are errors."""


class Event(Message):
    """Stored events tolerate unknown fields so old readers survive new writers."""
