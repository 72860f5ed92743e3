"""structlog, JSON lines, the same fields in every service.

Every line about a move carries ``game_id``, ``command_id``,
``correlation_id`` and ``version`` (bound with :func:`structlog.contextvars`
in the handlers), plus ``service`` and ``node`` bound here once.
"""

from __future__ import annotations

import logging
import sys

import structlog


def configure(service: str, node: str, level: str = "info") -> structlog.stdlib.BoundLogger:
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso", utc=True),
            structlog.processors.format_exc_info,
            structlog.processors.JSONRenderer(),
        ],
        wrapper_class=structlog.make_filtering_bound_logger(logging.getLevelName(level.upper())),
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=True,
    )
    structlog.contextvars.bind_contextvars(service=service, node=node)
    return structlog.get_logger()
