"""The compact form of a seat's legal commands, as view documents carry them.

A Tigris seat may have 300-750 legal commands, most of them one command laid
on many squares; listed one by one they were about 20 KB of JSON per view,
14 times the rest of it, written, sent and parsed on every move. A view
document's ``legal`` is therefore a list of groups, in ``legal``'s order:

* ``{"command": C}`` is the one command ``C``;
* ``{"command": P, "each": F, "values": [v1, v2, ...]}`` is the commands
  ``P`` with field ``F`` added, set to ``v1``, then to ``v2``, ...: ``P`` is
  a command without its field ``F``, and each value is that field's JSON
  value (a number, a string, a list or an object: whatever the field holds).
  ``F`` is the command's last field, so an expanded command has its fields
  in the order the game lists them.

Expanding the groups in order gives exactly the game's ``legal(state, seat)``
list, in the same order, byte for byte once encoded
(``tests/games/contract_checks.py`` holds every game to it). Games build
their groups where it pays (``GameModule.legal_groups``); any other game gets
:func:`one_each`. :func:`expand` is the one expansion of the JSON form in
Python; ``services/web/static/api.js`` has the browser's.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import msgspec

from shared.kernel.messages import Record


class LegalGroup(Record, frozen=True, omit_defaults=True):
    """Legal commands of a view document: ``command`` alone is one command; with
    ``each``, one command per entry of ``values``: ``command`` with the field
    ``each`` added (its last field), set to that value. Expanding the groups
    in order gives the seat's legal commands in the game's order."""

    #: The command; with ``each``, the command without that field (as JSON).
    command: Any
    #: The field that varies across the group's commands.
    each: str | None = None
    #: That field's value in each of the group's commands, in order.
    values: tuple[Any, ...] = ()


def one_each(commands: Iterable[Any]) -> list[LegalGroup]:
    """The generic form: each command its own group."""
    return [LegalGroup(command=c) for c in commands]


def without(command: msgspec.Struct, field: str) -> msgspec.Raw:
    """``command``'s JSON object less ``field``: the ``command`` of a group over
    ``field``. Games compute these once, at import."""
    as_json = msgspec.to_builtins(command)
    del as_json[field]
    return msgspec.Raw(msgspec.json.encode(as_json))


def runs(commands: Iterable[msgspec.Struct]) -> list[LegalGroup]:
    """Group consecutive commands that differ in their last field only (a Tigris
    hand's swaps, which differ in the number of black tiles). For short lists
    a game keeps (it costs a conversion per command)."""
    out: list[LegalGroup] = []
    run: list[dict[str, Any]] = []
    for command in commands:
        fields = msgspec.to_builtins(command)
        if run and not _continues(run[0], fields):
            out.append(_group(run))
            run = []
        run.append(fields)
    if run:
        out.append(_group(run))
    return out


def _continues(first: dict[str, Any], fields: dict[str, Any]) -> bool:
    """Whether ``fields`` is ``first`` with another value of its last field (never
    its ``type``: a group is of one kind of command)."""
    if fields.keys() != first.keys() or len(fields) < 2:
        return False
    *rest, last = fields
    return fields[last] != first[last] and all(fields[k] == first[k] for k in rest)


def _group(run: list[dict[str, Any]]) -> LegalGroup:
    if len(run) == 1:
        return LegalGroup(command=msgspec.Raw(msgspec.json.encode(run[0])))
    *rest, last = run[0]
    command = msgspec.Raw(msgspec.json.encode({k: run[0][k] for k in rest}))
    return LegalGroup(command=command, each=last, values=tuple(c[last] for c in run))


def expand(groups: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """The flat list of commands a view document's ``legal`` stands for, from its
    JSON (decoded to dicts), in order. Raises ``ValueError`` on a malformed group."""
    out: list[dict[str, Any]] = []
    for group in groups:
        command = group["command"]
        each = group.get("each")
        if each is None:
            out.append(dict(command))
            continue
        if each in command or not group.get("values"):
            raise ValueError(f"a group over {each!r} must leave it out of its command and list its values")
        out += ({**command, each: value} for value in group["values"])
    return out
