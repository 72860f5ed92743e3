"""``python -m services.stages``: the pipeline's stages hosted in one process.

The validator, the reducer and the projector stay separate services, each
deployable alone; a deployment whose stages share a machine may host them
together instead (``ZIGGURAT_STAGES`` names which, by default all three).
Each stage builds exactly the jobs it builds on its own: it reads and writes
its own streams in its own consumer group, the reducer holds its leases, and
each logs and counts under its own name. What they share is the process: one
event loop, one store client, one health and metrics endpoint. Killing the
process is killing each stage: each one's pending entries are reclaimed and
its leases taken over, as when any one of them dies (docs/reliability.md).

Whether it pays is measured (``bench.pipeline --layout``, docs/performance.md):
it saves each stage's own process (wake-ups, context switches, a runtime),
and costs the stages a core between them.
"""

from __future__ import annotations

from services.projector.__main__ import setup as projector
from services.reducer.__main__ import setup as reducer
from services.validator.__main__ import setup as validator
from shared.infra.settings import load
from shared.messaging.service import Setup, host
from shared.observability.metrics import PROJECTOR, REDUCER, VALIDATOR

#: The stages this process can host, in the pipeline's order.
STAGES: dict[str, Setup] = {VALIDATOR: validator, REDUCER: reducer, PROJECTOR: projector}


def chosen(names: str) -> dict[str, Setup]:
    """The stages ``names`` lists (comma-separated), in the pipeline's order."""
    wanted = {n.strip() for n in names.split(",") if n.strip()}
    if unknown := wanted - STAGES.keys():
        named = ", ".join(sorted(unknown))
        raise SystemExit(f"ZIGGURAT_STAGES: no stage called {named}; one or more of {', '.join(STAGES)}")
    if not wanted:
        raise SystemExit(f"ZIGGURAT_STAGES names no stage; one or more of {', '.join(STAGES)}")
    return {name: setup for name, setup in STAGES.items() if name in wanted}


if __name__ == "__main__":
    host("stages", chosen(load().stages))
