"""Admission: each check's code and message pinned once, in the order a client meets
them, and the validator and the reducer answering every case alike."""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from services.reducer.plan import Plan, plan
from services.validator.checks import check_move
from shared.kernel import table as tables
from shared.kernel.admission import admit
from shared.kernel.auth import token_hash
from shared.kernel.codec import codec_for
from shared.kernel.rejection import RuleViolation
from shared.messaging.messages import CommandMsg, Decided, Outcome
from tests.support.highcard import GAME
from tests.support.messages import move_msg

HASHES = (token_hash("t0"), token_hash("t1"))


def _table() -> tables.Table:
    return tables.fold(GAME, tables.open_table(GAME, 2, {}, b"\x03" * 32, HASHES, 0))


def _game_of(key: str) -> Any:
    assert key == GAME.key
    return GAME


def _play(t: tables.Table) -> dict[str, Any]:
    return {"type": "highcard.play", "card": t.state.hands[0][0]}


def _refusal(table: tables.Table | None, token: str, command: object, expected: int | None) -> RuleViolation:
    with pytest.raises(RuleViolation) as caught:
        admit("g", table, token_hash(token), _game_of, msgspec.json.encode(command), expected)
    return caught.value


def test_each_check_has_its_code_and_message() -> None:
    t = _table()
    unknown = _refusal(None, "t0", _play(t), None)
    assert (unknown.code, unknown.message) == ("unknown_table", "There is no table g.")
    forged = _refusal(t, "forged", _play(t), None)
    assert (forged.code, forged.message) == (
        "bad_token",
        "This token does not belong to a seat at this table.",
    )
    bad = _refusal(t, "t0", {"type": "highcard.nope"}, None)
    assert bad.code == "bad_command" and bad.message.startswith(f"Not a {GAME.title} command: ")
    stale = _refusal(t, "t0", _play(t), t.version + 1)
    assert (stale.code, stale.message, stale.details) == (
        "stale_version",
        f"You acted on version {t.version + 1}, but the game is at version {t.version}.",
        {"current": t.version},
    )


def test_the_checks_run_in_order_the_first_failure_answers() -> None:
    t = _table()
    # Every check would fail: the earliest one is the answer.
    assert _refusal(None, "forged", {"type": "x"}, 99).code == "unknown_table"
    assert _refusal(t, "forged", {"type": "x"}, 99).code == "bad_token"
    assert _refusal(t, "t0", {"type": "x"}, 99).code == "bad_command"


def test_an_admitted_move_names_its_seat_and_decoded_command() -> None:
    t = _table()
    raw = msgspec.json.encode(_play(t))
    admitted = admit("g", t, token_hash("t1"), _game_of, raw, t.version)
    assert admitted.seat == 1 and admitted.game is GAME and admitted.table is t
    assert admitted.command == codec_for(GAME).command_from_json(raw)


def test_without_a_command_only_who_sends_it_and_the_version_are_checked() -> None:
    t = _table()
    admitted = admit("g", t, token_hash("t0"), _game_of)
    assert admitted.seat == 0 and admitted.command is None
    with pytest.raises(RuleViolation, match="stale_version"):
        admit("g", t, token_hash("t0"), _game_of, None, t.version + 1)


def _verdicts(msg: CommandMsg, table: tables.Table | None) -> tuple[tuple[str, str], tuple[str, str]]:
    validated = check_move(msg, table, False)
    planned = plan(msg, table, 0, lambda: b"")
    assert isinstance(validated, Outcome) and isinstance(planned, Outcome)
    return (validated.code or "", validated.message or ""), (planned.code or "", planned.message or "")


@pytest.mark.parametrize(
    ("case", "code"),
    [
        ("no table", "unknown_table"),
        ("forged token", "bad_token"),
        ("not a command", "bad_command"),
        ("acted on another version", "stale_version"),
    ],
)
def test_the_validator_and_the_reducer_refuse_alike(case: str, code: str) -> None:
    t = _table()
    msg = {
        "no table": move_msg("t0", _play(t)),
        "forged token": move_msg("forged", _play(t)),
        "not a command": move_msg("t0", {"type": "highcard.nope"}),
        "acted on another version": move_msg("t0", _play(t), expected_version=t.version + 1),
    }[case]
    validator, reducer = _verdicts(msg, None if case == "no table" else t)
    assert validator == reducer and validator[0] == code


def test_the_reducer_checks_the_version_of_a_reused_decision_too() -> None:
    t = _table()
    passed = check_move(move_msg("t0", _play(t), expected_version=t.version), t, False)
    assert isinstance(passed, CommandMsg) and isinstance(passed.decided, Decided)
    assert isinstance(plan(passed, t, 0, lambda: b""), Plan)
    stale = msgspec.structs.replace(passed, expected_version=t.version + 1)
    refused = plan(stale, t, 0, lambda: b"")
    assert isinstance(refused, Outcome) and refused.code == "stale_version"
