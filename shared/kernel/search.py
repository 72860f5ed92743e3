"""The ``hard`` bot: information-set Monte Carlo tree search with determinisation.

A bot at a table with hidden information may not read the hidden facts, so it
cannot search the true state. Each iteration instead draws a *determinisation*:
a full state the game's engine can play on, whose hidden facts the game's
sampler (``Secrets.sample_hidden``) drew at random among those consistent with
what the seat may see. One tree over the seat's information set is shared by
every determinisation (single-observer IS-MCTS, Cowling, Powley and Whitehouse
2012, as OpenSpiel's ``ISMCTSBot``): a node is the sequence of moves from the
root, and each move's statistics count only the iterations in which it was
legal (its *availability*), so moves that exist in few determinisations are
not starved by UCT's parent count.

An iteration descends with UCT among the moves available in its
determinisation, adds one node, plays on with a cheap rollout bot for a few
moves, and scores the state reached: the final standings if the game ended,
else the game's own heuristic score (by who leads, or by how far with a
``spread``). With a few hundred iterations a move, the search is led by the
``medium`` bot's rating (``rate``): the root's candidates are its best moves,
each with a progressive bias by its rank that fades as the move is visited,
so the iterations go to moves worth trying and the bot falls back on
``medium``'s choice when the search has seen little. Rewards are per seat (each seat's share
of the seats it beats), and each move is credited with the reward of the seat
that chose it, so opponents in the tree play for themselves.

A game may instead spend the root's budget by sequential halving
(``root="halving"``): no tree, each of the rating's candidates played on the
same determinisations with the same chance and rollout draws, the worse half
dropped round by round. With a few hundred playouts a move, comparing
candidates on the same deals tells them apart where a tree's few visits each,
on deals of their own, mostly measure the deals.

At more than two seats a game may measure each seat against the best of the
others only (``versus="best"``: beating two of three seats is worth nothing
when the third wins), and move the other seats inside the tree by the rollout
bot (``opponents="rollout"``): the tree then branches on the seat's own moves
only and its opponents play as the ``medium`` bot they most likely are, where
UCT over a random sample of their moves would model them as weaker players and
spend the budget on their choices.

Everything is drawn from the bot's own generator, and the true state is read
only through the sampler and ``legal`` (which is part of the seat's own view):
given the same view, the same generator and an iteration budget, the bot makes
the same move. A CPU budget (``process_time``) bounds a move's cost as well;
a move cut short by it depends on the machine, so tests budget iterations only.
"""

from __future__ import annotations

import hashlib
import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal

import msgspec

from shared.kernel.contract import Bot, GameModule, Result
from shared.kernel.rng import SEED_BYTES, Rng

Game = GameModule[Any, Any, Any, Any]
#: ``sample(state, seat, rng)``: a determinisation for ``seat`` (``Secrets.sample_hidden``).
Sampler = Callable[[Any, int, Rng], Any]
#: ``score(state)``: every seat's standing so far, higher is better, for unfinished rollouts.
Score = Callable[[Any], Sequence[float]]
#: ``rate(state, seat, commands)``: the ``medium`` bot's rating of each command, one
#: comparable key per command (higher is better); only their order is used.
Rate = Callable[[Any, int, list[Any]], Sequence[Any]]

#: Bounds on a move's budget: enough to matter, never enough to hold a bot runner for long.
MAX_ITERATIONS = 20_000
MAX_CPU_MS = 10_000
MAX_DEPTH = 200
MAX_WIDTH = 64

_encode = msgspec.json.Encoder().encode


class _SearchRng(Rng):
    """The search's own draws (its determinisations, chance and rollouts): the same
    numbers for the same seed and stream, drawn by a Mersenne Twister seeded once from
    ``blake2b`` rather than a ``blake2b`` digest a draw. A search draws thousands of
    numbers a move (Conan's sampler shuffles its decks every iteration), and the digest
    a draw was a fifth of an iteration's CPU; the game's own outcomes never come
    from here, so the platform's reproducibility across Python versions is not needed."""

    __slots__ = ("_twister",)

    def __init__(self, seed: bytes, stream: int) -> None:
        super().__init__(seed, stream)
        digest = hashlib.blake2b(stream.to_bytes(8, "big"), key=seed, digest_size=16).digest()
        self._twister = random.Random(int.from_bytes(digest, "big"))

    def _next_u64(self) -> int:
        self._counter += 1
        return self._twister.getrandbits(64)


#: The stream of the draws a tree search's iterations share (each iteration's chance
#: draws are the stream of its number, below :data:`MAX_ITERATIONS`).
_OWN_STREAM = 1 << 32


@dataclass(frozen=True, slots=True)
class Budget:
    """What one move may spend: it stops at whichever limit comes first."""

    iterations: int
    #: Process CPU time; ``None``: iterations only (deterministic, for tests).
    cpu_ms: int | None = None

    def __post_init__(self) -> None:
        if not 1 <= self.iterations <= MAX_ITERATIONS:
            raise ValueError(f"iterations must be within 1..{MAX_ITERATIONS}")
        if self.cpu_ms is not None and not 1 <= self.cpu_ms <= MAX_CPU_MS:
            raise ValueError(f"cpu_ms must be within 1..{MAX_CPU_MS}")


#: The default budget of a ``hard`` move; the CPU bound keeps p95 under 250 ms on one core.
DEFAULT_BUDGET = Budget(iterations=300, cpu_ms=200)


@dataclass(slots=True)
class _Edge:
    command: Any
    #: The ``medium`` rating's share of the bias (1 for its best move, less down its order).
    prior: float = 0.0
    visits: int = 0
    total: float = 0.0
    available: int = 0
    child: _Node | None = None


@dataclass(slots=True)
class _Node:
    edges: dict[bytes, _Edge] = field(default_factory=dict)


#: Whom a seat's reward measures it against: ``each`` other seat (its share of
#: them) or only the ``best`` of them (a win's measure: at four seats, beating
#: two of three is worth nothing when the third wins).
Versus = Literal["each", "best"]


def rank_rewards(scores: Sequence[float], versus: Versus = "each") -> tuple[float, ...]:
    """Each seat's share of the other seats it is ahead of (a tie counts half):
    1 for a lone leader, 0 for the last, the same scale at any seat count.
    ``best``: 1 ahead of every other seat, 1/2 level with the best of them, else 0."""
    n = len(scores)
    if n < 2:
        return (1.0,) * n
    if versus == "best":
        return tuple(_against_best(scores, lambda lead: 1.0 if lead > 0 else 0.5 if lead == 0 else 0.0))
    return tuple(
        sum(
            1.0 if mine > other else 0.5 if mine == other else 0.0 for j, other in enumerate(scores) if j != i
        )
        / (n - 1)
        for i, mine in enumerate(scores)
    )


def margin_rewards(scores: Sequence[float], spread: float, versus: Versus = "each") -> tuple[float, ...]:
    """As :func:`rank_rewards`, but by how far ahead or behind: each other seat
    (or only the best of them) counts ``(1 + tanh(lead / spread)) / 2``, so a
    rollout cut short tells a small lead from a large one and a level position
    still leans the right way."""
    n = len(scores)
    if n < 2:
        return (1.0,) * n
    if versus == "best":
        return tuple(_against_best(scores, lambda lead: 0.5 + 0.5 * math.tanh(lead / spread)))
    return tuple(
        sum(0.5 + 0.5 * math.tanh((mine - other) / spread) for j, other in enumerate(scores) if j != i)
        / (n - 1)
        for i, mine in enumerate(scores)
    )


def _against_best(scores: Sequence[float], reward: Callable[[float], float]) -> list[float]:
    """``reward(lead)`` of each seat over the best of the other seats."""
    order = sorted(range(len(scores)), key=lambda i: scores[i], reverse=True)
    first, second = scores[order[0]], scores[order[1]]
    return [reward(mine - (second if i == order[0] else first)) for i, mine in enumerate(scores)]


def result_rewards(result: Result, seats: int, versus: Versus = "each") -> tuple[float, ...]:
    places = [0] * seats
    for standing in result.standings:
        places[standing.seat] = standing.place
    return rank_rewards([-p for p in places], versus)


@dataclass(frozen=True, slots=True)
class SearchBot:
    """A :data:`~shared.kernel.contract.Bot` that searches; see the module's docstring."""

    #: The game, looked up when a move is asked for: the module's ``bots`` hold this bot.
    game: Callable[[], Game]
    sample: Sampler
    score: Score
    #: Plays the rollouts: cheap (the game's random bot).
    rollout: Bot
    #: Proposes the root's first candidates (the game's ``medium`` bot), or ``None``.
    prior: Bot | None = None
    #: The ``medium`` bot's rating: the root's candidates are its best ``width`` moves
    #: and each carries a progressive bias by its rank; ``None``: ``prior`` and a sample.
    rate: Rate | None = None
    #: The progressive bias of the rating's best move, fading as ``bias / (1 + visits)``.
    bias: float = 1.0
    budget: Budget = DEFAULT_BUDGET
    #: Rollout moves before the heuristic score decides.
    depth: int = 12
    #: Moves considered at a node: all of them up to this many, else a sample
    #: (the prior's proposals first at the root).
    width: int = 16
    exploration: float = 0.7
    #: The score lead that counts as most of a win at a rollout's cut (:func:`margin_rewards`);
    #: ``None``: only who is ahead counts (:func:`rank_rewards`).
    spread: float | None = None
    #: How the root spends the budget: ``uct`` (one tree, UCT by availability) or
    #: ``halving`` (sequential halving over the rated candidates, each judged on the
    #: same determinisations and chance draws: see :meth:`_halving`).
    root: Literal["uct", "halving"] = "uct"
    #: Whom each seat's reward measures it against (:data:`Versus`); the same at two seats.
    versus: Versus = "each"
    #: How the other seats move inside the tree: ``tree`` (UCT for themselves over a sample
    #: of their moves) or ``rollout`` (the rollout bot's move, not a node: the tree
    #: branches on the seat's own moves only, its opponents modelled by the bot they
    #: most likely are, at no share of the budget).
    opponents: Literal["tree", "rollout"] = "tree"
    #: How many of the seat's own moves deep the tree branches; past them the rollout bot
    #: plays. ``1``: a flat search of the root's candidates, each judged by how the rollout
    #: bot goes on from it (with a few dozen iterations a move, a node below the root is
    #: visited once or twice, and its unrated sample of moves puts a random move of the
    #: seat's own into most of its candidate's rollouts); ``None``: no bound.
    plies: int | None = None
    clock: Callable[[], float] = time.process_time

    def __post_init__(self) -> None:
        if not 0 <= self.depth <= MAX_DEPTH or not 1 <= self.width <= MAX_WIDTH:
            raise ValueError(f"depth must be within 0..{MAX_DEPTH} and width within 1..{MAX_WIDTH}")
        if self.plies is not None and not 1 <= self.plies <= MAX_DEPTH:
            raise ValueError(f"plies must be within 1..{MAX_DEPTH}")

    def with_budget(self, budget: Budget) -> SearchBot:
        return replace(self, budget=budget)

    def __call__(self, state: Any, seat: int, rng: Rng) -> Any:
        game = self.game()
        legal = game.legal(state, seat)
        if len(legal) == 1:
            return legal[0]
        seed = b"".join(rng.below(1 << 64).to_bytes(8, "big") for _ in range(SEED_BYTES // 8))
        root = _Node()
        candidates = self._root_candidates(game, state, seat, legal, rng)
        if self.root == "halving":
            return self._halving(game, state, seat, list(candidates.values()), seed)
        if self.rate is not None:
            # The rating's order seeds the root's edges: its best move first and biased most.
            for rank, (key, command) in enumerate(candidates.items()):
                root.edges[key] = _Edge(command, prior=1.0 / (1 + rank))
        started = self.clock()
        # The iterations' determinisations and rollouts draw from the search's own stream.
        draws = _SearchRng(seed, _OWN_STREAM)
        for i in range(self.budget.iterations):
            if self.budget.cpu_ms is not None and (self.clock() - started) * 1000 >= self.budget.cpu_ms:
                break
            self._iterate(game, state, seat, root, candidates, _SearchRng(seed, i), draws)
        best = max(
            candidates,
            key=lambda k: (
                (root.edges[k].visits, root.edges[k].prior, root.edges[k].total)
                if k in root.edges
                else (-1, 0.0, 0.0)
            ),
        )
        return candidates[best]

    def _root_candidates(
        self, game: Game, state: Any, seat: int, legal: list[Any], rng: Rng
    ) -> dict[bytes, Any]:
        # ``legal`` is part of the seat's own view; the prior runs on a determinisation only.
        if self.rate is not None:
            return self._rated(state, seat, legal, rng)
        width = 2 * self.width
        out: dict[bytes, Any] = {}
        if self.prior is not None and len(legal) > width:
            world = self.sample(state, seat, rng)
            for _ in range(3):
                command = self.prior(world, seat, rng)
                out.setdefault(_encode(command), command)
        return out | _some(legal, width - len(out), rng)

    def _rated(self, state: Any, seat: int, legal: list[Any], rng: Rng) -> dict[bytes, Any]:
        """The rating's best ``width`` of ``legal``, best first (ties in a random order)."""
        assert self.rate is not None
        keys = self.rate(self.sample(state, seat, rng), seat, legal)
        # A stable sort of a shuffled order: equal ratings come in a random order.
        ranked = sorted(_shuffle(len(legal), rng), key=lambda i: keys[i], reverse=True)[: self.width]
        return {_encode(legal[i]): legal[i] for i in ranked}

    def _halving(self, game: Game, state: Any, seat: int, candidates: list[Any], seed: bytes) -> Any:
        """Sequential halving (Karnin, Koren and Somekh 2013) over the root's candidates,
        best rated first: rounds of determinisations, each candidate played on every one
        of them with the same chance draws and rollout generator (common random numbers,
        so two candidates are told apart by what they do, not by the deal each drew), the
        worse half dropped after each round. A round's share of the budget is planned from
        the CPU an evaluation has cost so far. Only determinisations every survivor was
        played on count, so the comparison stays paired when the budget cuts a round
        short; with none complete the rating's best is the move."""
        alive = list(range(len(candidates)))
        totals = [0.0] * len(candidates)
        started = self.clock()
        spent = dealt = 0
        while len(alive) > 1 and spent < self.budget.iterations:
            rounds = math.ceil(math.log2(len(alive)))
            left = self.budget.iterations - spent
            if self.budget.cpu_ms is not None and spent:
                per = (self.clock() - started) * 1000 / spent
                left = min(left, int((self.budget.cpu_ms - (self.clock() - started) * 1000) / per))
            deals = max(1, left // (rounds * len(alive)))
            for _ in range(deals):
                scored = []
                for i in alive:
                    if spent >= self.budget.iterations or self._out_of_time(started):
                        break
                    scored.append(self._played(game, state, seat, candidates[i], seed, dealt))
                    spent += 1
                if len(scored) < len(alive):
                    break  # the budget cut this determinisation short: it does not count
                for i, reward in zip(alive, scored, strict=True):
                    totals[i] += reward
                dealt += 1
            else:
                # Ties keep the rating's order (``alive`` is best rated first).
                alive = sorted(alive, key=lambda i: -totals[i])[: (len(alive) + 1) // 2]
                continue
            break
        return candidates[max(alive, key=lambda i: (totals[i], -i))]

    def _out_of_time(self, started: float) -> bool:
        return self.budget.cpu_ms is not None and (self.clock() - started) * 1000 >= self.budget.cpu_ms

    def _played(self, game: Game, state: Any, seat: int, command: Any, seed: bytes, deal: int) -> float:
        """``seat``'s reward for ``command`` on determinisation number ``deal``: its draws
        (the sample, the chance, the rollout's choices) depend on ``deal`` alone."""
        world = self.sample(state, seat, _SearchRng(seed, 3 * deal))
        sim, rng = _SearchRng(seed, 3 * deal + 1), _SearchRng(seed, 3 * deal + 2)
        world = game.fold(game.decide(world, seat, command, sim), world)
        return self._rollout(game, world, sim, rng)[seat]

    def _rollout(self, game: Game, world: Any, sim: Rng, rng: Rng) -> tuple[float, ...]:
        """Every seat's reward after ``depth`` moves of the rollout bot from ``world``."""
        for _ in range(self.depth):
            if game.is_over(world):
                break
            actor = min(game.actors(world))
            world = game.fold(game.decide(world, actor, self.rollout(world, actor, rng), sim), world)
        outcome = game.result(world)
        seats = game.seat_count(world)
        if outcome is not None:
            return result_rewards(outcome, seats, self.versus)
        if self.spread is None:
            return rank_rewards(self.score(world), self.versus)
        return margin_rewards(self.score(world), self.spread, self.versus)

    def _iterate(
        self, game: Game, state: Any, seat: int, root: _Node, candidates: dict[bytes, Any], sim: Rng, rng: Rng
    ) -> None:
        world = self.sample(state, seat, rng)
        node: _Node | None = root
        path: list[tuple[_Edge, int]] = []
        own = 0
        while node is not None and not game.is_over(world):
            if node is root:
                actor, moves = seat, candidates
            else:
                actor = min(game.actors(world))
                if actor != seat and self.opponents == "rollout":
                    world = game.fold(game.decide(world, actor, self.rollout(world, actor, rng), sim), world)
                    continue
                if actor == seat and self.plies is not None and own >= self.plies:
                    break
                moves = _some(game.legal(world, actor), self.width, rng)
            edge = self._select(node, moves, rng)
            world = game.fold(game.decide(world, actor, edge.command, sim), world)
            path.append((edge, actor))
            own += actor == seat
            if edge.child is None:
                edge.child = _Node()
                node = None
            else:
                node = edge.child
        rewards = self._rollout(game, world, sim, rng)
        for edge, actor in path:
            edge.visits += 1
            edge.total += rewards[actor]

    def _select(self, node: _Node, moves: dict[bytes, Any], rng: Rng) -> _Edge:
        fresh: list[_Edge] = []
        best: _Edge | None = None
        best_value = -math.inf
        for key, command in moves.items():
            edge = node.edges.get(key)
            if edge is None:
                edge = node.edges[key] = _Edge(command)
            edge.available += 1
            if edge.visits == 0:
                fresh.append(edge)
                continue
            value = (
                edge.total / edge.visits
                + self.exploration * math.sqrt(math.log(edge.available) / edge.visits)
                + self.bias * edge.prior / (1 + edge.visits)
            )
            if value > best_value:
                best, best_value = edge, value
        if fresh:
            top = max(e.prior for e in fresh)
            return rng.choice([e for e in fresh if e.prior == top])
        assert best is not None, "a node is searched only while its seat has a legal move"
        return best


def _some(commands: list[Any], width: int, rng: Rng) -> dict[bytes, Any]:
    """Up to ``width`` of ``commands`` by their encodings, a random sample if there are more."""
    if width <= 0:
        return {}
    if len(commands) <= width:
        return {_encode(c): c for c in commands}
    # A partial Fisher-Yates: ``width`` draws, however many commands there are.
    moved: dict[int, int] = {}
    picked = []
    for k in range(width):
        j = k + rng.below(len(commands) - k)
        picked.append(moved.get(j, j))
        moved[j] = moved.get(k, k)
    return {_encode(commands[i]): commands[i] for i in sorted(picked)}


def _shuffle(n: int, rng: Rng) -> list[int]:
    order = list(range(n))
    for k in range(n - 1, 0, -1):
        j = rng.below(k + 1)
        order[k], order[j] = order[j], order[k]
    return order


def by_iterations(bot: Bot, iterations: int) -> Bot:
    """``bot`` with any search in it budgeted by ``iterations`` only: its move
    then depends on nothing but the state it is given and its generator (a
    CPU budget cut short makes it depend on the machine too)."""
    return bot.with_budget(Budget(iterations=iterations)) if isinstance(bot, SearchBot) else bot
