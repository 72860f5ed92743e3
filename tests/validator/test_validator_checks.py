"""The validator's checks, pure: identity, decoding, version, dry run."""

from services.validator.checks import check_move, check_open
from shared.kernel import table as tables
from shared.kernel.auth import token_hash
from shared.messaging.messages import CommandMsg, OpenMsg, OpenTable, Outcome
from tests.support.highcard import GAME
from tests.support.messages import move_msg

HASHES = (token_hash("t0"), token_hash("t1"))


def table() -> tables.Table:
    return tables.fold(GAME, tables.open_table(GAME, 2, {}, b"\x03" * 32, HASHES, 0))


def code(verdict: object) -> str:
    return verdict.code if isinstance(verdict, Outcome) else "passed"


def test_a_legal_move_passes_with_the_seat_filled_in() -> None:
    t = table()
    card = t.state.hands[0][0]
    verdict = check_move(
        move_msg("t0", {"type": "highcard.play", "card": card}, expected_version=t.version), t, False
    )
    assert isinstance(verdict, CommandMsg) and verdict.seat == 0 and verdict.validated_ns > 0


def test_each_failure_has_its_own_code() -> None:
    t = table()
    card = t.state.hands[0][0]
    play = {"type": "highcard.play", "card": card}
    assert code(check_move(move_msg("t0", play), None, False)) == "unknown_table"
    assert code(check_move(move_msg("forged", play), t, False)) == "bad_token"
    assert code(check_move(move_msg("t0", {"type": "highcard.nope"}), t, False)) == "bad_command"
    assert (
        code(check_move(move_msg("t0", {"type": "highcard.play", "card": 1, "x": 2}), t, False))
        == "bad_command"
    )
    assert code(check_move(move_msg("t0", play, expected_version=1), t, False)) == "stale_version"
    assert (
        code(check_move(move_msg("t1", {"type": "highcard.play", "card": t.state.hands[1][0]}), t, False))
        == "not_your_turn"
    )
    assert (
        code(check_move(move_msg("t0", {"type": "highcard.play", "card": 999}), t, False))
        == "card_not_in_hand"
    )


def test_a_command_already_applied_passes_so_the_reducer_can_answer_its_first_outcome() -> None:
    t = table()
    stale = move_msg("t1", {"type": "highcard.play", "card": 999})
    assert isinstance(check_move(stale, t, True), CommandMsg)
    assert code(check_move(stale, t, True)) == "passed"
    assert code(check_move(move_msg("forged", {}), t, True)) == "bad_token"


def test_opening_checks_game_seats_and_options() -> None:
    def opening(game: str, seats: int, options: dict | None = None) -> CommandMsg:
        return OpenMsg(
            game_id="g",
            partition=0,
            command_id="o",
            correlation_id="x",
            reply_to="gw",
            received_ns=0,
            open=OpenTable(game=game, seats=seats, options=options or {}, token_hashes=("h",) * seats),
        )

    assert code(check_open(opening("highcard", 2), None)) == "passed"
    assert code(check_open(opening("highcard", 2), table())) == "table_exists"
    assert code(check_open(opening("chess", 2), None)) == "unknown_game"
    assert code(check_open(opening("highcard", 7), None)) == "bad_seat_count"
    assert code(check_open(opening("highcard", 2, {"deck_size": "big"}), None)) == "bad_options"
