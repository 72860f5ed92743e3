"""Settling a conflict once the attacker, then the defender, committed cards (docs/rules/tigris-cards.md §11).

Higher strength wins and a tie goes to the defender. The loser's leader goes
home; the winner keeps one committed card as a VP (or, if the reward pool is
empty, may lay one from hand), and the rest leave the game. An external
conflict also hands the winner every card of its colour in the loser's former
kingdom, except heads and cards with a leader on them.
"""

from __future__ import annotations

from shared.games.tigris_cards import table as tb
from shared.games.tigris_cards.cards import colour_of, count
from shared.games.tigris_cards.commands import CommitSupport
from shared.games.tigris_cards.events import (
    Awaiting,
    ConflictResolved,
    LeaderReturned,
    SpoilsTaken,
    SupportCommitted,
)
from shared.games.tigris_cards.rejections import NOT_ENOUGH_CARDS
from shared.games.tigris_cards.rules import CardsFold
from shared.games.tigris_cards.rules.connecting import continue_union
from shared.games.tigris_cards.rules.kingdoms import Span, cards_in, kingdom
from shared.games.tigris_cards.rules.turns import end_action
from shared.games.tigris_cards.state import Conflict, Spot, State, Support, Token, VpOffer
from shared.kernel.rejection import require

REWARD = "reward"


def commit(f: CardsFold, seat: int, command: CommitSupport) -> None:
    conflict = f.state.conflict
    assert conflict is not None
    held = count(f.state.players[seat].hand, conflict.support)
    require(
        0 <= command.count <= held,
        NOT_ENOUGH_CARDS,
        f"You can commit 0 to {held} {conflict.support} cards.",
        held=held,
    )
    f.emit(SupportCommitted(seat=seat, colour=conflict.support, count=command.count))
    if seat == conflict.attacker:
        f.emit(Awaiting(phase=Support(seat=conflict.defender)))
    else:
        resolve(f)


def winner_of(conflict: Conflict) -> tuple[int, int]:
    attack = conflict.attacker_base + (conflict.attacker_cards or 0)
    defence = conflict.defender_base + (conflict.defender_cards or 0)
    if attack > defence:
        return conflict.attacker, conflict.defender
    return conflict.defender, conflict.attacker


def reward_pool(state: State, conflict: Conflict, winner: int) -> int:
    rule = state.options.internal_reward if conflict.kind == "internal" else state.options.external_reward
    if rule == "winner_played":
        return (conflict.attacker_cards if winner == conflict.attacker else conflict.defender_cards) or 0
    return (conflict.attacker_cards or 0) + (conflict.defender_cards or 0)


def resolve(f: CardsFold) -> None:
    conflict = f.state.conflict
    assert conflict is not None
    winner, loser = winner_of(conflict)
    token = Token(seat=loser, leader=conflict.colour.leader)
    spot = tb.find_leader(f.state.table, token)
    assert spot is not None
    committed = (conflict.attacker_cards or 0) + (conflict.defender_cards or 0)
    reward = reward_pool(f.state, conflict, winner) > 0
    resolved = ConflictResolved(
        winner=winner, loser=loser, colour=conflict.colour, reward=reward, discarded=committed - int(reward)
    )
    if conflict.kind == "internal":
        f.emit(LeaderReturned(token=token, spot=spot), resolved)
    else:
        take_spoils(f, token, spot, winner, resolved)
    if not reward:
        f.emit(Awaiting(phase=VpOffer(seat=winner, colour=conflict.support, reason=REWARD)))
    else:
        after_conflict(f)


def take_spoils(f: CardsFold, token: Token, spot: Spot, winner: int, resolved: ConflictResolved) -> None:
    span = kingdom(f.state.table, spot.column)
    if f.state.options.loser_leader_first:
        f.emit(LeaderReturned(token=token, spot=spot), resolved)
        f.emit(SpoilsTaken(seat=winner, spots=spoils(f.state, span, resolved)))
    else:
        # The loser's leader still shields its card; it may have slid up since.
        f.emit(resolved, SpoilsTaken(seat=winner, spots=spoils(f.state, span, resolved)))
        moved = tb.find_leader(f.state.table, token)
        assert moved is not None
        f.emit(LeaderReturned(token=token, spot=moved))


def spoils(state: State, span: Span, resolved: ConflictResolved) -> tuple[Spot, ...]:
    return tuple(
        spot
        for spot, slot in cards_in(state.table, span)
        if spot.row != 0 and slot.leader is None and colour_of(slot.card) is resolved.colour
    )


def after_conflict(f: CardsFold) -> None:
    if f.state.union is not None:
        continue_union(f)
    else:
        end_action(f)
