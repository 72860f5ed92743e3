"""The alert rules and scrape configs agree with each other and with the code.

* deploy/k8s/prometheusrule.yaml holds exactly the groups of
  deploy/prometheus/alerts.yml (regenerate it with
  ``python -m tests.deploy.test_alert_rules``);
* every metric a rule queries is exported by some process, or made by
  Prometheus (``up``) or by a recording rule of the same file;
* compose, ``make run`` (local.yml) and Kubernetes (ServiceMonitors) name the
  same jobs, the ones the rules select, and load the same rules;
* every alert has a severity, a summary, a runbook section in
  docs/reliability.md and a unit test in alerts_test.yml.

promtool's own checks, and a real Prometheus, are in tests/observability/test_prometheus.py.
"""

from __future__ import annotations

import re
import sys
from typing import Any

import yaml

from shared.infra.launcher import Layout, Stack
from tests.deploy.deploy_tree import DEPLOY, K8S, REPO, compose, k8s_docs
from tests.deploy.metric_names import exported_series, promql_metric_names

RULES = DEPLOY / "prometheus" / "alerts.yml"
RULE_TESTS = DEPLOY / "prometheus" / "alerts_test.yml"
LOCAL = DEPLOY / "prometheus" / "local.yml"
PROMETHEUS_RULE = K8S / "prometheusrule.yaml"
RELIABILITY = REPO / "docs" / "reliability.md"
#: Series Prometheus makes itself.
SYNTHETIC = {"up"}
JOBS = {"gateway", "validator", "reducer", "projector", "platform"}
#: The job of the process hosting the three stages together (services/stages),
#: which a stack started with ``layout="together"`` runs instead of the three.
STAGE_HOST = "stages"

HEADER = """\
# Generated from deploy/prometheus/alerts.yml: edit that file, then run
#   python -m tests.deploy.test_alert_rules
# (tests/deploy/test_alert_rules.py fails while the two differ). For the
# Prometheus Operator; not in kustomization.yaml, like servicemonitor.yaml:
#   kubectl apply -f deploy/k8s/prometheusrule.yaml
# Your operator may select rules by label (e.g. `release: <name>`): add it below.
"""


def rules() -> dict[str, Any]:
    return yaml.safe_load(RULES.read_text())


def prometheus_rule(groups: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "apiVersion": "monitoring.coreos.com/v1",
        "kind": "PrometheusRule",
        "metadata": {
            "name": "ziggurat",
            "namespace": "ziggurat",
            "labels": {"app.kubernetes.io/part-of": "ziggurat"},
        },
        "spec": {"groups": groups},
    }


class _Dumper(yaml.SafeDumper):
    """Multi-line expressions as literal blocks, as in alerts.yml."""


_Dumper.add_representer(
    str,
    lambda dumper, text: dumper.represent_scalar(
        "tag:yaml.org,2002:str", text, style="|" if "\n" in text else None
    ),
)


def render() -> str:
    doc = prometheus_rule(rules()["groups"])
    return HEADER + yaml.dump(doc, Dumper=_Dumper, sort_keys=False, width=1000, indent=2)


def all_rules() -> list[dict[str, Any]]:
    return [rule for group in rules()["groups"] for rule in group["rules"]]


def alerts() -> list[dict[str, Any]]:
    return [rule for rule in all_rules() if "alert" in rule]


def test_the_prometheus_rule_is_the_rules_file() -> None:
    (doc,) = yaml.safe_load_all(PROMETHEUS_RULE.read_text())
    assert doc == prometheus_rule(rules()["groups"]), "run: python -m tests.deploy.test_alert_rules"


def test_every_metric_a_rule_queries_is_exported() -> None:
    series = exported_series()
    recorded = {rule["record"] for rule in all_rules() if "record" in rule}
    for rule in all_rules():
        names = promql_metric_names(rule["expr"])
        assert names, rule
        unknown = names - series.keys() - recorded - SYNTHETIC
        assert not unknown, f"{rule.get('alert') or rule.get('record')}: {sorted(unknown)} not exported"


def test_every_alert_has_a_severity_a_summary_a_runbook_and_a_unit_test() -> None:
    tested = {
        case["alertname"]
        for test in yaml.safe_load(RULE_TESTS.read_text())["tests"]
        for case in test.get("alert_rule_test", [])
        if case.get("exp_alerts")
    }
    text = RELIABILITY.read_text()
    headings = {m.lower() for m in re.findall(r"^### (Ziggurat\w+)$", text, re.M)}
    names = [rule["alert"] for rule in alerts()]
    assert len(names) == len(set(names))
    for rule in alerts():
        name = rule["alert"]
        assert rule["labels"]["severity"] in ("critical", "warning"), name
        assert rule["annotations"]["summary"], name
        assert rule["annotations"]["runbook_url"] == f"docs/reliability.md#{name.lower()}", name
        assert name.lower() in headings, f"docs/reliability.md has no '### {name}'"
        assert name in tested, f"no unit test in alerts_test.yml sees {name} fire"


def test_the_rules_select_the_jobs_every_deployment_names() -> None:
    selected = set()
    for rule in all_rules():
        for match in re.finditer(r'job=~?"([^"]+)"', rule["expr"]):
            selected |= set(match.group(1).split("|"))
    assert selected == JOBS | {STAGE_HOST}


def compose_jobs() -> set[str]:
    config = yaml.safe_load((DEPLOY / "prometheus.yml").read_text())
    return {job["job_name"] for job in config["scrape_configs"]}


def local_jobs(layout: Layout = "separate") -> set[str]:
    """The jobs local.yml's relabelling makes of the targets ``ziggurat run`` writes."""
    config = yaml.safe_load(LOCAL.read_text())
    (job,) = [j for j in config["scrape_configs"] if "file_sd_configs" in j]
    (rule,) = [r for r in job["relabel_configs"] if r.get("target_label") == "job"]
    regex = re.compile(rule["regex"])
    # The processes a stack starts (several of each stage, to see the suffixes go).
    stack = Stack(REPO / "var" / "unused", validators=2, reducers=2, projectors=2, layout=layout)
    names = [proc.name for proc in stack._plan()]
    out = set()
    for name in names:
        found = regex.fullmatch(name)
        assert found, name
        out.add(found.expand(rule["replacement"].replace("$", "\\")))
    return out


def k8s_jobs() -> set[str]:
    """Job names under the Prometheus Operator: the Services its ServiceMonitors select."""
    services = [d for d in k8s_docs() if d["kind"] == "Service"]
    monitors = [d for d in k8s_docs() if d["kind"] == "ServiceMonitor"]
    out = set()
    for monitor in monitors:
        selector = monitor["spec"]["selector"]
        for service in services:
            labels = service["metadata"].get("labels", {})
            if any(labels.get(k) != v for k, v in selector.get("matchLabels", {}).items()):
                continue
            if any(labels.get(e["key"]) not in e["values"] for e in selector.get("matchExpressions", [])):
                continue
            out.add(service["metadata"]["name"])
    return out


def test_compose_local_and_kubernetes_name_the_same_jobs() -> None:
    assert local_jobs() == JOBS
    assert local_jobs("together") == JOBS - {"validator", "reducer", "projector"} | {STAGE_HOST}
    assert compose_jobs() - {"prometheus", "valkey"} == JOBS
    assert k8s_jobs() - {"valkey"} == JOBS


def test_local_config_reads_the_targets_ziggurat_run_writes() -> None:
    from shared.cli import discovery

    config = yaml.safe_load(LOCAL.read_text())
    (job,) = [j for j in config["scrape_configs"] if "file_sd_configs" in j]
    (sd,) = job["file_sd_configs"]
    files = {(LOCAL.parent / f).resolve() for f in sd["files"]}
    assert discovery.targets_file(REPO / "var").resolve() in files
    assert [m["regex"] for m in job["relabel_configs"] if m.get("action") == "labeldrop"] == ["service"]


def test_every_prometheus_loads_the_rules() -> None:
    for config_path in (DEPLOY / "prometheus.yml", LOCAL):
        config = yaml.safe_load(config_path.read_text())
        assert [(config_path.parent / f).resolve() for f in config["rule_files"]] == [RULES.resolve()]
    # Compose mounts the rules where the config, relative to itself, finds them.
    (rule_file,) = yaml.safe_load((DEPLOY / "prometheus.yml").read_text())["rule_files"]
    volumes = compose()["services"]["prometheus"]["volumes"]
    assert f"./prometheus/alerts.yml:/etc/prometheus/{rule_file}:ro" in volumes


def main() -> None:
    PROMETHEUS_RULE.write_text(render())
    print(f"wrote {PROMETHEUS_RULE.relative_to(REPO)}", file=sys.stderr)


if __name__ == "__main__":
    main()
