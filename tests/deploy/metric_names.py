"""Metric names on both sides: the ones a PromQL expression (an alert rule, a
dashboard query) selects, and the series the processes export."""

from __future__ import annotations

import re

from shared.observability import metrics

PROMQL_WORDS = {"by", "without", "on", "ignoring", "group_left", "group_right", "and", "or", "unless", "bool"}


def promql_metric_names(expr: str) -> set[str]:
    """Metric names a PromQL expression selects (not functions, labels or keywords)."""
    text = re.sub(r'"(?:[^"\\]|\\.)*"|\'(?:[^\'\\]|\\.)*\'', '""', expr)
    text = re.sub(r"\{[^}]*\}", " ", text)  # label matchers
    text = re.sub(r"\[[^\]]*\]", " ", text)  # ranges and subqueries
    text = re.sub(r"\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)", " ", text)
    text = re.sub(r"\boffset\s+-?\S+", " ", text)
    text = re.sub(r"\$\{?\w+\}?", " ", text)  # Grafana variables
    names = set()
    for match in re.finditer(r"(?<![\w.:$])([A-Za-z_:][\w:]*)(\s*\()?", text):
        if match.group(2) or match.group(1).lower() in PROMQL_WORDS | {"inf", "nan"}:
            continue
        names.add(match.group(1))
    return names


def exported_series() -> dict[str, str]:
    """Every series name some process exports -> the metric it belongs to (its
    own registry: the metrics it owns and the process's CPU, memory and GC)."""
    suffixes = {
        "counter": ["_total"],
        "gauge": [""],
        "histogram": ["_bucket", "_sum", "_count"],
        "summary": ["", "_sum", "_count"],
        "info": ["_info"],
        "stateset": [""],
        "enum": [""],
    }
    series: dict[str, str] = {}
    for service in metrics.SERVICES:
        for family in metrics.registry(service).collect():
            for suffix in suffixes[family.type]:
                series[family.name + suffix] = family.name
    return series
