"""Keep the garbage collector's passes few and short in long-running services.

Everything a service allocates while starting (modules, game content, rule
tables) lives as long as the process, yet every full collection walks it
again: about 5 ms per pass with the four games loaded, paid by whichever
command is in flight. Freezing moves those objects out of the collector's
view once startup is done.

The collector's young pass runs whenever container allocations outnumber
deallocations by its threshold (CPython's default: 700). A batch of commands
holds more than that alive at once, so at the default the stages' process
collected 24-30 times a second under load, each pass and the older passes it
led to walking objects that were about to be freed anyway; ``YOUNG_THRESHOLD``
lets the batches' objects die by reference count first. What only a
collection frees (reference cycles) is still freed, one pass per
``YOUNG_THRESHOLD`` of them at most (docs/performance.md, "the runtime's own
overheads").

Every long-running service calls this once its startup is done, inside its
event loop, so it is also where the runtime probes start (collection pauses
and event-loop lag, ``shared.observability.runtime``): what they measure is
exactly what this freeze is for.
"""

from __future__ import annotations

import gc

from shared.observability import runtime

#: The young generation's collection threshold set once a service has started.
YOUNG_THRESHOLD = 20_000


def freeze_startup_objects() -> None:
    gc.collect()
    gc.freeze()
    gc.set_threshold(YOUNG_THRESHOLD, *gc.get_threshold()[1:])
    runtime.watch()
