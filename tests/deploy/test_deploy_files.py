"""The deployment files agree with the code: no docker or cluster needed.

Every YAML and JSON file under deploy/ parses; every module and ``ziggurat``
subcommand the compose file and the k8s manifests run exists; every
``ZIGGURAT_*`` variable is a settings field; every metric a dashboard queries
is one some process exports (each only its own, shared/observability/metrics.py);
Prometheus scrapes every service. The proxy in front (deploy/edge/haproxy.cfg)
is the one compose and Kubernetes run, in front of gateways nobody else
reaches, with limits inside the gateway's own; the Ingress variant carries its
numbers.
"""

from __future__ import annotations

import ipaddress
import json
import re
import shlex
from pathlib import Path
from typing import Any

import msgspec
import pytest
import yaml
from prometheus_client.metrics import MetricWrapperBase

from services.gateway.connections import networks
from services.gateway.feeds import HEARTBEAT_S
from services.gateway.tables.play_socket import SocketLimits
from shared.cli.main import main as cli_main
from shared.infra.settings import Settings
from shared.observability import metrics
from tests.deploy.deploy_tree import DEPLOY, K8S, REPO, compose, k8s_docs
from tests.deploy.metric_names import exported_series, promql_metric_names

DASHBOARDS = DEPLOY / "grafana" / "dashboards"
WORKLOAD_KINDS = {"Deployment", "StatefulSet", "DaemonSet", "Job", "CronJob"}
MODULE_RE = re.compile(r"(?<![\w.])services\.([A-Za-z_]\w*)")
SUBCOMMAND_RE = re.compile(r"(?:^|[\s/])ziggurat\s+([a-z][\w-]*)")
ENV_RE = re.compile(r"\bZIGGURAT_[A-Z0-9_]+\b")
#: Serves the web client's files only: the proxy's metrics count its requests
#: (haproxy_backend_* of the `web` backend), so it has nothing of its own to scrape.
UNSCRAPED = {"web"}
#: A process hosting other services' stages together (a layout a deployment
#: may choose when they share a machine): compose and Kubernetes run the
#: stages apart, each scaled and scraped on its own.
HOSTS = {"stages"}


def service_modules() -> list[str]:
    """Every ``services/<name>`` that can be run with ``python -m``."""
    return sorted(p.parent.name for p in (REPO / "services").glob("*/__main__.py"))


def deploy_files(*suffixes: str) -> list[Path]:
    return sorted(p for p in DEPLOY.rglob("*") if p.is_file() and p.suffix in suffixes)


def text_files() -> list[Path]:
    return sorted(p for p in DEPLOY.rglob("*") if p.is_file())


def image_default_argv() -> tuple[list[str], list[str]]:
    """The Dockerfile's ENTRYPOINT and CMD (exec form)."""
    entrypoint: list[str] = []
    cmd: list[str] = []
    for line in (DEPLOY / "Dockerfile").read_text().splitlines():
        if line.startswith("ENTRYPOINT "):
            entrypoint = json.loads(line.split(" ", 1)[1])
        elif line.startswith("CMD "):
            cmd = json.loads(line.split(" ", 1)[1])
    return entrypoint, cmd


def as_list(value: Any) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return shlex.split(value)
    return [str(v) for v in value]


def compose_ziggurat_services() -> dict[str, dict[str, Any]]:
    """The compose services that run the Ziggurat image."""
    return {
        name: svc
        for name, svc in compose()["services"].items()
        if "build" in svc or str(svc.get("image", "")).split(":")[0].endswith("ziggurat")
    }


def compose_argv(svc: dict[str, Any]) -> list[str]:
    entrypoint, cmd = image_default_argv()
    if "entrypoint" in svc:
        return as_list(svc["entrypoint"]) + as_list(svc.get("command"))
    return entrypoint + (as_list(svc["command"]) if "command" in svc else cmd)


def pod_spec(doc: dict[str, Any]) -> dict[str, Any]:
    spec = doc["spec"]
    if doc["kind"] == "CronJob":
        spec = spec["jobTemplate"]["spec"]
    return spec["template"]


def k8s_ziggurat_containers() -> list[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]]:
    """(workload, pod template, container) for every container of the Ziggurat image."""
    found = []
    for doc in k8s_docs():
        if doc["kind"] not in WORKLOAD_KINDS:
            continue
        template = pod_spec(doc)
        for container in template["spec"]["containers"]:
            repo = container["image"].rsplit("/", 1)[-1].split(":")[0]
            if repo == "ziggurat":
                found.append((doc, template, container))
    return found


def k8s_argv(container: dict[str, Any]) -> list[str]:
    entrypoint, cmd = image_default_argv()
    if "command" in container:
        return as_list(container["command"]) + as_list(container.get("args"))
    return entrypoint + (as_list(container["args"]) if "args" in container else cmd)


def programs(argv: list[str]) -> tuple[set[str], set[str]]:
    """The service modules and ``ziggurat`` subcommands a command line runs."""
    line = " ".join(argv)
    return set(MODULE_RE.findall(line)), set(SUBCOMMAND_RE.findall(line))


def all_argvs() -> dict[str, list[str]]:
    argvs = {f"compose:{name}": compose_argv(svc) for name, svc in compose_ziggurat_services().items()}
    for doc, _, container in k8s_ziggurat_containers():
        argvs[f"k8s:{doc['kind']}/{doc['metadata']['name']}/{container['name']}"] = k8s_argv(container)
    return argvs


# --------------------------------------------------------------------- parsing


def test_every_yaml_and_json_file_parses() -> None:
    yamls = deploy_files(".yaml", ".yml")
    jsons = deploy_files(".json")
    assert len(yamls) >= 10 and len(jsons) >= 2
    for path in yamls:
        docs = [d for d in yaml.safe_load_all(path.read_text()) if d is not None]
        assert docs, f"{path} is empty"
        assert all(isinstance(d, dict) for d in docs), path
    for path in jsons:
        assert isinstance(json.loads(path.read_text()), dict), path


def test_k8s_documents_have_kind_name_and_namespace() -> None:
    for doc in k8s_docs():
        assert {"apiVersion", "kind"} <= doc.keys()
        if doc["kind"] in ("Kustomization", "Namespace"):
            continue
        assert doc["metadata"]["name"], doc
        assert doc["metadata"].get("namespace") == "ziggurat", doc["metadata"]["name"]


def test_kustomization_lists_existing_files() -> None:
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    for resource in kustomization["resources"]:
        assert (K8S / resource).is_file(), resource


# ------------------------------------------------------- services and commands


def test_there_are_services_to_deploy() -> None:
    assert {"gateway", "validator", "reducer", "projector"} <= set(service_modules())


def test_every_container_runs_a_real_module_or_subcommand() -> None:
    argvs = all_argvs()
    assert len(argvs) >= 8
    for where, argv in argvs.items():
        modules, subcommands = programs(argv)
        assert modules or subcommands, f"{where} runs neither a service nor a ziggurat command: {argv}"
        for module in modules:
            assert "python -m services." in " ".join(argv), f"{where}: {argv}"
            assert (REPO / "services" / module / "__main__.py").is_file(), f"{where}: no services.{module}"


def test_every_module_named_anywhere_in_deploy_exists() -> None:
    for path in text_files():
        for module in MODULE_RE.findall(path.read_text()):
            assert (REPO / "services" / module / "__main__.py").is_file(), f"{path}: services.{module}"


def test_every_ziggurat_subcommand_named_exists(capsys: pytest.CaptureFixture[str]) -> None:
    named = set().union(*(programs(argv)[1] for argv in all_argvs().values()))
    assert named, "expected at least one ziggurat command (the rebuild tool)"
    for sub in sorted(named):
        with pytest.raises(SystemExit) as exit_:
            cli_main([sub, "--help"])
        assert exit_.value.code == 0, f"`ziggurat {sub}` is not a command"
    capsys.readouterr()


def test_the_subcommand_check_rejects_unknown_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        cli_main(["no-such-command", "--help"])
    assert exit_.value.code != 0
    capsys.readouterr()


def test_compose_and_k8s_run_every_service() -> None:
    in_compose = set().union(*(programs(compose_argv(s))[0] for s in compose_ziggurat_services().values()))
    in_k8s = set().union(*(programs(k8s_argv(c))[0] for _, _, c in k8s_ziggurat_containers()))
    assert in_compose == set(service_modules()) - HOSTS
    assert in_k8s == set(service_modules()) - HOSTS


def test_the_stages_a_host_runs_together_the_deployments_run_apart() -> None:
    from services.stages.__main__ import STAGES

    assert set(STAGES) <= set(service_modules()) - HOSTS


def test_compose_services_have_replica_counts_and_build_from_the_dockerfile() -> None:
    for name, svc in compose_ziggurat_services().items():
        assert isinstance(svc["deploy"]["replicas"], int), name
        build = svc["build"]
        assert (DEPLOY / build["context"] / build["dockerfile"]).resolve() == DEPLOY / "Dockerfile", name


def test_dockerfile_installs_the_package_on_python_311_slim() -> None:
    text = (DEPLOY / "Dockerfile").read_text()
    assert re.search(r"^FROM python:3\.11-slim\b", text, re.M)
    assert re.search(r"\bpip install \.(\s|$)", text)
    assert re.search(r"^USER [1-9]\d*$", text, re.M), "a numeric non-root user, for runAsNonRoot"
    entrypoint, cmd = image_default_argv()
    assert entrypoint == ["python", "-m"]
    assert MODULE_RE.findall(" ".join(cmd))


# -------------------------------------------------------------------- settings


def test_every_ziggurat_variable_is_a_settings_field() -> None:
    fields = set(Settings.__struct_fields__)
    seen = set()
    for path in text_files():
        for var in ENV_RE.findall(path.read_text()):
            seen.add(var)
            assert var.removeprefix("ZIGGURAT_").lower() in fields, f"{path.relative_to(REPO)}: {var}"
    assert {"ZIGGURAT_REDIS_URL", "ZIGGURAT_LEASE_TTL_S"} <= seen


def settings_from(env: dict[str, Any]) -> Settings:
    """What ``shared.infra.settings.load`` would make of these variables."""
    raw = {k.removeprefix("ZIGGURAT_").lower(): str(v) for k, v in env.items() if k.startswith("ZIGGURAT_")}
    return msgspec.convert(raw, Settings, strict=False)


def k8s_settings() -> dict[str, str]:
    (configmap,) = [
        d for d in k8s_docs() if d["kind"] == "ConfigMap" and d["metadata"]["name"] == "ziggurat-settings"
    ]
    return configmap["data"]


def test_settings_values_are_valid() -> None:
    for name, svc in compose_ziggurat_services().items():
        settings = settings_from(svc["environment"])
        assert settings.http_host == "0.0.0.0", name
        assert "valkey" in settings.redis_url, name
    settings = settings_from(k8s_settings())
    assert settings.http_host == "0.0.0.0"
    for _, _, container in k8s_ziggurat_containers():
        refs = [e["configMapRef"]["name"] for e in container.get("envFrom", [])]
        assert refs == ["ziggurat-settings"], container["name"]


def test_every_compose_service_agrees_on_partitions() -> None:
    counts = {settings_from(s["environment"]).partitions for s in compose_ziggurat_services().values()}
    assert len(counts) == 1


def test_compose_reducers_are_alike_replicas_of_one_service() -> None:
    """Leases share the partitions out: no index to give each reducer, and a
    name of its own each (the default, hostname-pid, is unique per container)."""
    reducers = {
        name: svc
        for name, svc in compose_ziggurat_services().items()
        if programs(compose_argv(svc))[0] == {"reducer"}
    }
    (svc,) = reducers.values()
    assert svc["deploy"]["replicas"] >= 2
    assert "ZIGGURAT_NODE" not in svc["environment"]


def k8s_reducer() -> tuple[dict[str, Any], dict[str, Any]]:
    (found,) = [(d, c) for d, _, c in k8s_ziggurat_containers() if programs(k8s_argv(c))[0] == {"reducer"}]
    return found


def test_k8s_reducers_are_a_deployment_of_alike_pods_each_named_after_itself() -> None:
    workload, container = k8s_reducer()
    assert workload["kind"] == "Deployment" and workload["spec"]["replicas"] >= 2
    assert k8s_argv(container) == ["python", "-m", "services.reducer"]
    env = {e["name"]: e for e in container["env"]}
    assert env["ZIGGURAT_NODE"]["valueFrom"]["fieldRef"]["fieldPath"] == "metadata.name"


def test_stateless_services_are_k8s_deployments_with_replicas() -> None:
    for doc, _, container in k8s_ziggurat_containers():
        modules = programs(k8s_argv(container))[0]
        if modules & {"gateway", "validator", "reducer", "projector"}:
            assert doc["kind"] == "Deployment" and doc["spec"]["replicas"] >= 1, doc["metadata"]["name"]


# ---------------------------------------------------------------------- valkey


def valkey_settings(text: str) -> dict[str, str]:
    pairs = (line.split(None, 1) for line in text.splitlines() if line.strip() and not line.startswith("#"))
    return {p[0]: (p[1] if len(p) > 1 else "") for p in pairs}


def store_nodes() -> dict[str, dict[str, Any]]:
    """The compose services that are nodes of the store (they run valkey.conf)."""
    return {
        name: svc
        for name, svc in compose()["services"].items()
        if any(str(v).startswith("./valkey.conf:") for v in svc.get("volumes", []))
    }


def test_valkey_keeps_an_append_only_file() -> None:
    conf = valkey_settings((DEPLOY / "valkey.conf").read_text())
    assert conf["appendonly"] == "yes"
    assert conf["appendfsync"] == "everysec"
    assert re.search(r"#.*\balways\b", (DEPLOY / "valkey.conf").read_text())
    data = []
    for name, valkey in store_nodes().items():
        (volume,) = [v for v in valkey["volumes"] if ":/data" in v]
        assert volume.split(":")[0] in compose()["volumes"], name
        data.append(volume.split(":")[0])
    assert len(data) == len(set(data)), "each node keeps its data on a volume of its own"


def init_arguments(argv: list[str]) -> tuple[int, list[str]]:
    """valkey-cluster-init.sh's arguments: replicas per primary, the nodes (host:port)."""
    (at,) = [i for i, a in enumerate(argv) if a.endswith("valkey-cluster-init.sh")]
    return int(argv[at + 1]), argv[at + 2 :]


def test_compose_runs_a_replicated_store_of_three_primaries_by_default() -> None:
    conf = valkey_settings((DEPLOY / "valkey.conf").read_text())
    assert conf["cluster-enabled"] == "yes" and conf["cluster-require-full-coverage"] == "no"
    nodes = store_nodes()
    init = compose()["services"]["valkey-cluster-init"]
    replicas, named = init_arguments(as_list(init["entrypoint"]) + as_list(init["command"]))
    assert init["volumes"] == ["./valkey-cluster-init.sh:/usr/local/bin/valkey-cluster-init.sh:ro"]
    # Every node, once; three primaries at least, or no failover can be agreed.
    assert sorted(n.split(":")[0] for n in named) == sorted(nodes)
    assert replicas >= 1 and len(nodes) % (1 + replicas) == 0 and len(nodes) // (1 + replicas) >= 3
    assert set(init["depends_on"]) == set(nodes)
    for name, node in nodes.items():
        argv = as_list(node["command"])
        assert argv[argv.index("--cluster-announce-hostname") + 1] == node["hostname"] == name
    # The services wait for the cluster, use the cluster client, and wait for R replicas.
    for name, svc in compose_ziggurat_services().items():
        assert svc["depends_on"] == {"valkey-cluster-init": {"condition": "service_completed_successfully"}}
        settings = settings_from(svc["environment"])
        assert settings.cluster and settings.redis_url.split("//")[1].split(":")[0] in nodes, name
        assert settings.durability == "replicated", name
        assert settings.durability_replicas == int(conf["min-replicas-to-write"]) <= replicas, name


def test_k8s_runs_the_same_replicated_store() -> None:
    docs = k8s_docs()
    (statefulset,) = [d for d in docs if d["kind"] == "StatefulSet" and d["metadata"]["name"] == "valkey"]
    (job,) = [d for d in docs if d["kind"] == "Job" and d["metadata"]["name"] == "valkey-cluster-init"]
    (headless,) = [d for d in docs if d["kind"] == "Service" and d["metadata"]["name"] == "valkey-nodes"]
    (budget,) = [d for d in docs if d["kind"] == "PodDisruptionBudget" and d["metadata"]["name"] == "valkey"]
    (configmap,) = [d for d in docs if d["kind"] == "ConfigMap" and d["metadata"]["name"] == "valkey-config"]
    assert configmap["data"]["valkey-cluster-init.sh"] == (DEPLOY / "valkey-cluster-init.sh").read_text()
    assert headless["spec"]["clusterIP"] == "None" and statefulset["spec"]["serviceName"] == "valkey-nodes"
    (container,) = job["spec"]["template"]["spec"]["containers"]
    replicas, named = init_arguments(as_list(container["command"]))
    count = statefulset["spec"]["replicas"]
    assert named == [f"valkey-{i}.valkey-nodes.ziggurat.svc.cluster.local:6379" for i in range(count)]
    assert replicas >= 1 and count % (1 + replicas) == 0 and count // (1 + replicas) >= 3
    pod = statefulset["spec"]["template"]["spec"]
    args = pod["containers"][0]["args"]
    assert args[args.index("--cluster-announce-hostname") + 1] == (
        "$(POD_NAME).valkey-nodes.ziggurat.svc.cluster.local"
    )
    anti = pod["affinity"]["podAntiAffinity"]["preferredDuringSchedulingIgnoredDuringExecution"]
    assert anti[0]["podAffinityTerm"]["topologyKey"] == "kubernetes.io/hostname"
    assert budget["spec"]["maxUnavailable"] == 1
    settings = settings_from(k8s_settings())
    conf = valkey_settings((DEPLOY / "valkey.conf").read_text())
    assert settings.cluster and settings.durability == "replicated"
    assert settings.durability_replicas == int(conf["min-replicas-to-write"]) <= replicas


def test_k8s_valkey_config_matches_deploy_valkey_conf() -> None:
    (configmap,) = [
        d for d in k8s_docs() if d["kind"] == "ConfigMap" and d["metadata"]["name"] == "valkey-config"
    ]
    inline = valkey_settings(configmap["data"]["valkey.conf"])
    assert inline == valkey_settings((DEPLOY / "valkey.conf").read_text())
    (statefulset,) = [
        d for d in k8s_docs() if d["kind"] == "StatefulSet" and d["metadata"]["name"] == "valkey"
    ]
    claims = [t["metadata"]["name"] for t in statefulset["spec"]["volumeClaimTemplates"]]
    mounts = statefulset["spec"]["template"]["spec"]["containers"][0]["volumeMounts"]
    assert any(m["name"] in claims and m["mountPath"] == inline["dir"] for m in mounts)


# ------------------------------------------------------------------ prometheus


def scrape_targets() -> dict[str, set[str]]:
    """job name -> the host:port targets it scrapes (static or DNS)."""
    config = yaml.safe_load((DEPLOY / "prometheus.yml").read_text())
    jobs: dict[str, set[str]] = {}
    for job in config["scrape_configs"]:
        targets = jobs.setdefault(job["job_name"], set())
        assert job.get("metrics_path", "/metrics") == "/metrics", job["job_name"]
        for static in job.get("static_configs", []):
            targets.update(static["targets"])
        for dns in job.get("dns_sd_configs", []):
            assert dns.get("type", "SRV") == "A", job["job_name"]
            targets.update(f"{name}:{dns['port']}" for name in dns["names"])
    return jobs


def test_prometheus_scrapes_every_compose_service_on_its_metrics_port() -> None:
    targets = set().union(*scrape_targets().values())
    for name, svc in compose_ziggurat_services().items():
        modules = programs(compose_argv(svc))[0]
        if not modules or modules <= UNSCRAPED:
            continue  # a one-off tool, or the web client
        settings = settings_from(svc["environment"])
        port = settings.http_port if modules == {"gateway"} else settings.metrics_port
        assert f"{name}:{port}" in targets, f"{name} is not scraped on :{port}"


def test_prometheus_has_a_job_for_every_service() -> None:
    jobs = scrape_targets()
    for module in set(service_modules()) - UNSCRAPED - HOSTS:
        assert module in jobs, f"no scrape job for {module}"


def test_k8s_pods_carry_scrape_annotations_for_their_metrics_port() -> None:
    defaults = settings_from(k8s_settings())
    for doc, template, container in k8s_ziggurat_containers():
        modules = programs(k8s_argv(container))[0]
        if modules <= UNSCRAPED:
            continue
        port = defaults.http_port if modules == {"gateway"} else defaults.metrics_port
        annotations = template["metadata"]["annotations"]
        assert annotations["prometheus.io/scrape"] == "true", doc["metadata"]["name"]
        assert annotations["prometheus.io/port"] == str(port), doc["metadata"]["name"]
        assert port in [p["containerPort"] for p in container["ports"]], doc["metadata"]["name"]


def test_servicemonitors_select_a_service_of_every_workload() -> None:
    docs = k8s_docs()
    services = [d for d in docs if d["kind"] == "Service"]
    monitors = [d for d in docs if d["kind"] == "ServiceMonitor"]
    assert monitors

    def selects(monitor: dict[str, Any], service: dict[str, Any]) -> bool:
        labels = service["metadata"].get("labels", {})
        selector = monitor["spec"]["selector"]
        if any(labels.get(k) != v for k, v in selector.get("matchLabels", {}).items()):
            return False
        for expr in selector.get("matchExpressions", []):
            assert expr["operator"] == "In"
            if labels.get(expr["key"]) not in expr["values"]:
                return False
        ports = {p.get("name") for p in service["spec"]["ports"]}
        return any(e["port"] in ports for e in monitor["spec"]["endpoints"])

    for doc, template, container in k8s_ziggurat_containers():
        if programs(k8s_argv(container))[0] <= UNSCRAPED:
            continue
        pod_labels = template["metadata"]["labels"]
        matching = [
            s for s in services if all(pod_labels.get(k) == v for k, v in s["spec"]["selector"].items())
        ]
        assert any(selects(m, s) for m in monitors for s in matching), doc["metadata"]["name"]


# --------------------------------------------------------------------- grafana


def dashboard_queries() -> dict[str, list[str]]:
    """Dashboard file name -> every PromQL expression of its panels (rows included)."""

    def walk(panels: list[dict[str, Any]]) -> list[str]:
        exprs = []
        for panel in panels:
            exprs += [t["expr"] for t in panel.get("targets", []) if t.get("expr")]
            exprs += walk(panel.get("panels", []))
        return exprs

    return {p.name: walk(json.loads(p.read_text())["panels"]) for p in sorted(DASHBOARDS.glob("*.json"))}


def test_the_promql_reader_finds_metrics_and_nothing_else() -> None:
    expr = (
        'histogram_quantile(0.99, sum by (le, stage) (rate(ziggurat_stage_seconds_bucket{stage="x"}'
        "[$__rate_interval]))) / on (stage) group_left sum(up offset 5m) * 1e3 + vector(0)"
    )
    assert promql_metric_names(expr) == {"ziggurat_stage_seconds_bucket", "up"}
    assert promql_metric_names("sum(a_total) by (x) or b:recorded") == {"a_total", "b:recorded"}


def test_the_exported_series_include_suffixes_by_type() -> None:
    series = exported_series()
    assert series["ziggurat_commands_total"] == "ziggurat_commands"
    assert {"ziggurat_stage_seconds_bucket", "ziggurat_stage_seconds_count"} <= series.keys()
    assert "ziggurat_stage_seconds" not in series and "ziggurat_live_games" in series


def test_every_dashboard_query_uses_only_exported_metrics() -> None:
    series = exported_series()
    queries = dashboard_queries()
    assert {"pipeline.json", "tournaments.json", "store.json"} <= queries.keys()
    for name, exprs in queries.items():
        assert exprs, name
        for expr in exprs:
            names = promql_metric_names(expr)
            assert names, f"{name}: no metric in {expr!r}"
            unknown = names - series.keys() - {"up"}  # `up`: made by Prometheus for every target
            assert not unknown, f"{name}: {sorted(unknown)} not exported by any process, in {expr!r}"


def test_every_exported_metric_is_on_a_dashboard() -> None:
    series = exported_series()
    queried = {n for exprs in dashboard_queries().values() for e in exprs for n in promql_metric_names(e)}
    ours = {name for name in series.values() if name.startswith("ziggurat_")}
    missing = ours - {series[n] for n in queried if n in series}
    assert not missing, f"metrics no dashboard shows: {sorted(missing)}"


def exported_by(service: str) -> set[str]:
    return {family.name for family in metrics.registry(service).collect()}


def test_every_metric_has_an_owner() -> None:
    defined = {obj for obj in vars(metrics).values() if isinstance(obj, MetricWrapperBase)}
    assert defined == set(metrics.OWNERS)
    assert all(owners and set(owners) <= set(metrics.SERVICES) for owners in metrics.OWNERS.values())


def test_each_process_exports_only_the_metrics_it_owns() -> None:
    for service in metrics.SERVICES:
        ours = {name for name in exported_by(service) if name.startswith("ziggurat_")}
        assert ours == metrics.owned(service), service
        assert "process_resident_memory_bytes" in exported_by(service)
    assert "ziggurat_tournament_tables_live" not in exported_by("gateway")
    assert "ziggurat_tournament_tables_live" in exported_by("tournaments")
    for worker in ("validator", "reducer", "projector", "tournaments"):
        assert not {"ziggurat_http_request_seconds", "ziggurat_stage_backlog_seconds"} & exported_by(worker)


def samples(service: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in metrics.registry(service).collect()
        for s in family.samples
    }


def test_counters_start_at_zero_for_the_label_values_known_in_advance() -> None:
    gateway = samples("gateway")
    assert gateway[("ziggurat_errors_total", (("kind", "unexpected"), ("service", "gateway")))] == 0
    assert (
        gateway[
            ("ziggurat_commands_total", (("game", "tigris"), ("outcome", "unknown"), ("service", "gateway")))
        ]
        == 0
    )
    assert gateway[("ziggurat_rejections_total", (("code", "stale_version"), ("service", "gateway")))] == 0
    assert ("ziggurat_command_visible_seconds_count", (("game", "catan"),)) in gateway
    reducer = samples("reducer")
    for policy in ("bot", "forfeit"):
        assert reducer[("ziggurat_clock_timeouts_total", (("policy", policy),))] == 0
    for service in ("validator", "reducer", "projector", "tournaments"):
        found = samples(service)
        assert found[("ziggurat_dead_letters_total", (("service", service),))] == 0
        assert found[("ziggurat_reclaimed_total", (("service", service),))] == 0
        assert found[("ziggurat_errors_total", (("kind", "read"), ("service", service)))] == 0


def test_dashboards_use_the_provisioned_datasource_and_unique_ids() -> None:
    datasources = yaml.safe_load((DEPLOY / "grafana/provisioning/datasources/prometheus.yaml").read_text())
    (uid,) = [d["uid"] for d in datasources["datasources"] if d["type"] == "prometheus"]
    uids = []
    for path in sorted(DASHBOARDS.glob("*.json")):
        board = json.loads(path.read_text())
        uids.append(board["uid"])
        ids = [p["id"] for p in board["panels"]]
        assert len(ids) == len(set(ids)), path.name
        for panel in board["panels"]:
            if panel["type"] != "row":
                assert panel["datasource"]["uid"] == uid, (path.name, panel["title"])
                assert all(t["datasource"]["uid"] == uid for t in panel["targets"]), panel["title"]
    assert len(uids) == len(set(uids))


def test_compose_provisions_grafana_with_the_dashboards() -> None:
    provider = yaml.safe_load((DEPLOY / "grafana/provisioning/dashboards/ziggurat.yaml").read_text())
    (path,) = [p["options"]["path"] for p in provider["providers"]]
    volumes = compose()["services"]["grafana"]["volumes"]
    assert f"./grafana/dashboards:{path}:ro" in volumes
    assert "./grafana/provisioning:/etc/grafana/provisioning:ro" in volumes
    prometheus = compose()["services"]["prometheus"]["volumes"]
    assert "./prometheus.yml:/etc/prometheus/prometheus.yml:ro" in prometheus


# -------------------------------------------------------------------- the edge

EDGE_CFG = DEPLOY / "edge" / "haproxy.cfg"
_PRESETENV_RE = re.compile(r'^\s*presetenv\s+(EDGE_\w+)\s+"([^"]*)"\s*$', re.M)


def edge_defaults() -> dict[str, str]:
    """haproxy.cfg's EDGE_* variables and their defaults (its ``presetenv`` lines)."""
    return dict(_PRESETENV_RE.findall(EDGE_CFG.read_text()))


def haproxy_seconds(value: str) -> float:
    """An HAProxy duration (``500ms``, ``10s``, ``1h``; a bare number is milliseconds)."""
    number, unit = re.fullmatch(r"(\d+)(us|ms|s|m|h|d)?", value).groups()  # type: ignore[union-attr]
    scale = {"us": 1e-6, "ms": 1e-3, None: 1e-3, "s": 1, "m": 60, "h": 3600, "d": 86400}[unit]
    return int(number) * scale


def nginx_bytes(value: str) -> int:
    number, unit = re.fullmatch(r"(\d+)([kKmM]?)", value).groups()  # type: ignore[union-attr]
    return int(number) * {"": 1, "k": 1024, "m": 1024 * 1024}[unit.lower()]


def port_of(bind: str) -> int:
    return int(bind.rsplit(":", 1)[1])


def test_the_proxy_uses_only_variables_it_gives_a_default() -> None:
    """HAProxy expands an unset variable to nothing: a misspelt name would turn a
    limit off without a word."""
    text = EDGE_CFG.read_text()
    defaults = edge_defaults()
    assert {"EDGE_CONNS_PER_CLIENT", "EDGE_REQUESTS_PER_10S", "EDGE_GATEWAY"} <= defaults.keys()
    used = set(re.findall(r"\$\{(\w+)\}", text)) | set(re.findall(r"env\((\w+)\)", text))
    assert used == defaults.keys()
    for name in ("EDGE_TIMEOUT_HTTP_REQUEST", "EDGE_TIMEOUT_CLIENT", "EDGE_TIMEOUT_TUNNEL"):
        assert haproxy_seconds(defaults[name]) > 0, name


def test_the_proxys_limits_sit_inside_the_gateways_own() -> None:
    """The proxy refuses first (so a client hears it from the proxy, with its
    numbers), and its timeouts never cut what the gateway keeps alive."""
    edge = edge_defaults()
    gateway = settings_from(compose()["services"]["gateway"]["environment"])
    assert settings_from(k8s_settings()).max_body_bytes == gateway.max_body_bytes
    assert int(edge["EDGE_MAX_BODY_BYTES"]) == gateway.max_body_bytes
    assert int(edge["EDGE_MAX_HEADER_BYTES"]) < gateway.max_header_bytes
    assert haproxy_seconds(edge["EDGE_TIMEOUT_HTTP_REQUEST"]) < gateway.request_timeout_s
    # An idle live feed stays open on its heartbeats; a move the gateway waits
    # on is answered by the gateway (504 outcome_unknown at worst), not cut here.
    for timeout in ("EDGE_TIMEOUT_CLIENT", "EDGE_TIMEOUT_SERVER"):
        assert haproxy_seconds(edge[timeout]) >= 2 * HEARTBEAT_S, timeout
    assert haproxy_seconds(edge["EDGE_TIMEOUT_SERVER"]) > 2 * gateway.reply_timeout_s
    # The gateway ends an idle play connection itself, with a reason, first.
    assert haproxy_seconds(edge["EDGE_TIMEOUT_TUNNEL"]) > SocketLimits().idle_s


def test_compose_puts_the_proxy_in_front_of_the_gateways() -> None:
    services = compose()["services"]
    edge, gateway = services["edge"], services["gateway"]
    defaults = edge_defaults()
    assert edge["image"] == "haproxy:2.6"
    assert "./edge/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro" in edge["volumes"]
    assert edge["ports"] == [f"8000:{port_of(defaults['EDGE_BIND'])}"]
    # Only the proxy and the monitoring are published: no Ziggurat service is.
    for name in compose_ziggurat_services():
        assert "ports" not in services[name], name
    settings = settings_from(gateway["environment"])
    assert edge["environment"]["EDGE_GATEWAY"] == f"gateway:{settings.http_port}"
    assert int(edge["environment"]["EDGE_GATEWAY_SLOTS"]) >= gateway["deploy"]["replicas"]
    # The web client's paths go to the web service, one slot per replica.
    web = services["web"]
    assert edge["environment"]["EDGE_WEB"] == f"web:{settings_from(web['environment']).http_port}"
    assert int(edge["environment"]["EDGE_WEB_SLOTS"]) >= web["deploy"]["replicas"]
    # The gateways believe X-Forwarded-For from the proxy's fixed address and no other.
    address = ipaddress.ip_address(edge["networks"]["default"]["ipv4_address"])
    (subnet,) = [c["subnet"] for c in compose()["networks"]["default"]["ipam"]["config"]]
    assert address in ipaddress.ip_network(subnet)
    assert networks(settings.trusted_proxies) == (ipaddress.ip_network(f"{address}/32"),)


def k8s_named(kind: str, name: str) -> dict[str, Any]:
    (doc,) = [d for d in k8s_docs() if d["kind"] == kind and d["metadata"]["name"] == name]
    return doc


def test_k8s_puts_the_same_proxy_in_front_of_the_gateways() -> None:
    assert (K8S / "haproxy.cfg").read_text() == EDGE_CFG.read_text(), "copy deploy/edge/haproxy.cfg over"
    kustomization = yaml.safe_load((K8S / "kustomization.yaml").read_text())
    assert "edge.yaml" in kustomization["resources"]
    (generated,) = [g for g in kustomization["configMapGenerator"] if g["name"] == "edge-haproxy"]
    assert generated["files"] == ["haproxy.cfg"]

    deployment = k8s_named("Deployment", "edge")
    assert deployment["spec"]["replicas"] >= 2
    pod = deployment["spec"]["template"]["spec"]
    anti = pod["affinity"]["podAntiAffinity"]["preferredDuringSchedulingIgnoredDuringExecution"]
    assert anti[0]["podAffinityTerm"]["topologyKey"] == "kubernetes.io/hostname"
    (container,) = pod["containers"]
    assert container["image"] == "haproxy:2.6"
    (volume,) = pod["volumes"]
    assert volume["configMap"]["name"] == "edge-haproxy"
    assert {"name": "config", "mountPath": "/usr/local/etc/haproxy", "readOnly": True} in container[
        "volumeMounts"
    ]
    env = {e["name"]: e["value"] for e in container["env"]}
    assert env.keys() <= edge_defaults().keys()
    ports = {p["name"]: p["containerPort"] for p in container["ports"]}
    assert ports["http"] == port_of(edge_defaults()["EDGE_BIND"])
    assert ports["stats"] == port_of(edge_defaults()["EDGE_STATS_BIND"])

    # The proxy finds each gateway pod through a headless Service of them.
    host, port = env["EDGE_GATEWAY"].rsplit(":", 1)
    name, namespace = host.split(".")[:2]
    headless = k8s_named("Service", name)
    assert namespace == "ziggurat" and headless["spec"]["clusterIP"] == "None"
    gateway = k8s_named("Deployment", "gateway")
    assert headless["spec"]["selector"] == gateway["spec"]["selector"]["matchLabels"]
    assert int(port) == settings_from(k8s_settings()).http_port
    assert int(env["EDGE_GATEWAY_SLOTS"]) >= gateway["spec"]["replicas"]
    # And each web client pod through its own.
    host, port = env["EDGE_WEB"].rsplit(":", 1)
    headless = k8s_named("Service", host.split(".")[0])
    web = k8s_named("Deployment", "web")
    assert headless["spec"]["clusterIP"] == "None"
    assert headless["spec"]["selector"] == web["spec"]["selector"]["matchLabels"]
    assert int(port) == settings_from(k8s_settings()).http_port
    assert int(env["EDGE_WEB_SLOTS"]) >= web["spec"]["replicas"]

    # One public address, keeping the client's own; the gateways only inside.
    public = k8s_named("Service", "edge")
    assert public["spec"]["type"] == "LoadBalancer"
    assert public["spec"]["externalTrafficPolicy"] == "Local"
    assert [p["targetPort"] for p in public["spec"]["ports"]] == ["http"]
    for service in (d for d in k8s_docs() if d["kind"] == "Service"):
        if service["metadata"]["name"] != "edge":
            assert service["spec"].get("type", "ClusterIP") == "ClusterIP", service["metadata"]["name"]
    assert k8s_named("Service", "gateway")["spec"]["type"] == "ClusterIP"
    assert networks(settings_from(k8s_settings()).trusted_proxies)


def test_the_ingress_variant_carries_the_proxys_limits() -> None:
    edge = edge_defaults()
    ingress = k8s_named("Ingress", "ziggurat")
    notes = {
        key.removeprefix("nginx.ingress.kubernetes.io/"): value
        for key, value in ingress["metadata"]["annotations"].items()
    }
    assert int(notes["limit-connections"]) == int(edge["EDGE_CONNS_PER_CLIENT"])
    window = int(notes["limit-burst-multiplier"])
    assert window == 10 and int(notes["limit-rps"]) * window == int(edge["EDGE_REQUESTS_PER_10S"])
    assert nginx_bytes(notes["proxy-body-size"]) == int(edge["EDGE_MAX_BODY_BYTES"])
    assert nginx_bytes(notes["client-body-buffer-size"]) >= int(edge["EDGE_MAX_BODY_BYTES"])
    assert int(notes["proxy-connect-timeout"]) == haproxy_seconds(edge["EDGE_TIMEOUT_CONNECT"])
    assert int(notes["proxy-read-timeout"]) == haproxy_seconds(edge["EDGE_TIMEOUT_TUNNEL"])
    assert int(notes["proxy-send-timeout"]) == haproxy_seconds(edge["EDGE_TIMEOUT_TUNNEL"])
    assert notes["proxy-buffering"] == "off"
    (rule,) = ingress["spec"]["rules"]
    # The page and its files to the web client, the rest to the gateways: as the proxy routes them.
    routes = {(p["path"], p["pathType"]): p["backend"]["service"] for p in rule["http"]["paths"]}
    web, gateway = {"name": "web", "port": {"name": "http"}}, {"name": "gateway", "port": {"name": "http"}}
    assert routes == {("/", "Exact"): web, ("/static/", "Prefix"): web, ("/", "Prefix"): gateway}
