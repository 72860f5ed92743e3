"""Keep the garbage collector's full passes short in long-running services.

Everything a service allocates while starting (modules, game content, rule
tables) lives as long as the process, yet every full collection walks it
again: about 5 ms per pass with the four games loaded, paid by whichever
command is in flight. Freezing moves those objects out of the collector's
view once startup is done.

Every long-running service calls this once its startup is done, inside its
event loop, so it is also where the runtime probes start (collection pauses
and event-loop lag, ``shared.observability.runtime``): what they measure is
exactly what this freeze is for.
"""

from __future__ import annotations

import gc

from shared.observability import runtime


def freeze_startup_objects() -> None:
    gc.collect()
    gc.freeze()
    runtime.watch()
