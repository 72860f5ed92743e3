"""Age of Conan: The Strategy Board Game, with Ziggurat's own content pack.

The engine is content-agnostic: the map, dice and cards come from a content
pack (``content/<name>/*.yaml``) chosen by the ``pack`` option. The packs are
read here, once, when the registry imports the game; :func:`build` makes the
game over them, and the rules receive the table's :class:`Pack` from it. Each
pack's map is served through the contract's ``assets`` (``packs/<pack>/board``),
so the gateway serves it without naming the game. The bundled pack is
Ziggurat's own design.
"""

from __future__ import annotations

from collections.abc import Mapping

from shared.games.conan.bots import heuristic_bot, random_bot, rating, standing
from shared.games.conan.commands import AnyCommand
from shared.games.conan.content import Pack, PackError
from shared.games.conan.decide import decide
from shared.games.conan.events import AnyEvent, Started
from shared.games.conan.evolve import evolve
from shared.games.conan.legal import actors, legal
from shared.games.conan.loader import load_packs
from shared.games.conan.options import Options
from shared.games.conan.secrets import conceal, hidden_ids, named_ids, reveals, sample_hidden
from shared.games.conan.setup import create
from shared.games.conan.state import GameOver, State
from shared.games.conan.views import Board, board_asset, view, visibility
from shared.kernel.contract import Asset, Assets, GameModule, Result, Secrets, pack_board
from shared.kernel.rng import Rng
from shared.kernel.search import SearchBot

Game = GameModule[State, AnyCommand, AnyEvent, Options]


def result(state: State) -> Result | None:
    if not state.phases or not isinstance(state.phase, GameOver):
        return None
    return Result(standings=state.standings, reason=state.end_reason)


def build(packs: Mapping[str, Pack]) -> Game:
    """The game over these content packs, by name: a table plays the one its
    ``pack`` option names."""

    def pack(name: str) -> Pack:
        found = packs.get(name)
        if found is None:
            raise PackError(name, name, "pack", "no such content pack")
        return found

    def of(state: State) -> Pack:
        return pack(state.options.pack)

    boards = {pack_board(name): found for name, found in packs.items()}

    def asset(name: str) -> Asset | None:
        found = boards.get(name)
        return None if found is None else board_asset(found)

    def fold(state: State | None, event: AnyEvent) -> State:
        # The first event names the pack; every later one finds it in the state.
        options = event.options if isinstance(event, Started) else state.options if state else None
        assert options is not None, "the first event of a table is Started"
        return evolve(pack(options.pack), state, event)

    def sample(state: State, seat: int, rng: Rng) -> State:
        return sample_hidden(of(state), state, seat, rng)

    def easy(state: State, seat: int, rng: Rng) -> AnyCommand:
        return random_bot(of(state), state, seat, rng)

    def medium(state: State, seat: int, rng: Rng) -> AnyCommand:
        return heuristic_bot(of(state), state, seat, rng)

    game: Game = GameModule(
        key="conan",
        title="Age of Conan: The Strategy Board Game",
        min_seats=2,
        max_seats=4,
        options_type=Options,
        command_type=AnyCommand,
        event_type=AnyEvent,
        create=lambda options, seats, rng: create(pack(options.pack), options, seats, rng),
        evolve=fold,
        decide=lambda state, seat, command, rng: decide(of(state), state, seat, command, rng),
        seat_count=lambda state: len(state.seats),
        actors=lambda state: actors(of(state), state),
        legal=lambda state, seat: legal(of(state), state, seat),
        view=lambda state, audience: view(of(state), state, audience),
        visibility=visibility,
        result=result,
        secrets=Secrets(
            conceal=lambda state, owner, rng: conceal(of(state), state, owner, rng),
            reveals=reveals,
            hidden_ids=hidden_ids,
            named_ids=named_ids,
            sample_hidden=sample,
        ),
        state_type=State,
        bots={
            "random": easy,
            "heuristic": medium,
            "easy": easy,
            "medium": medium,
            # The module holds its own bot: looked up when a move is asked for.
            "hard": SearchBot(
                game=lambda: game,
                sample=sample,
                score=standing,
                rollout=medium,
                prior=medium,
                rate=rating,
                spread=3.0,
                # The other seats move as medium would, the tree branching on the seat's own
                # moves only, and only a win counts (docs/performance.md, "Bot levels", fourth pass).
                opponents="rollout",
                versus="best",
                # Rollouts of 4 moves, the heuristic scoring the cut: 1.4 times the iterations
                # a move (96-149 for 72-94) in the same CPU (docs/performance.md, "Bot levels", fifth pass).
                depth=4,
                # The rating only ranks kinds of move, and at bias 1 the search kept its best kind
                # 21 times in 22: at 0.3 it may overrule it. On the same 24 deals at four seats
                # against three medium seats, 0.3 won 10 and bias 1 won 5; over 48 deals 0.3 won
                # 15, not shown better (docs/performance.md, "Bot levels", sixth pass).
                bias=0.3,
            ),
        },
        assets=Assets(find=asset, types=(Board,)),
    )
    return game


#: The bundled packs, by name: the only place the game reads files (each
#: pack's map is served from them, through ``GAME.assets``).
PACKS = load_packs()
#: The game over the bundled packs.
GAME = build(PACKS)
GAMES = (GAME,)
