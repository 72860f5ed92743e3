"""The browser tests' fixtures (a plugin registered by tests/conftest.py, so they
reach a browser test in any package): Playwright for Python driving Debian's
``chromium`` against a stack of every service, one for all the browser tests
(they share one xdist group, so one worker runs them all).

The browser is the system's, never one Playwright downloads: if ``chromium``
is missing, the session installs it with apt-get (as root), or fails saying
how to install it.
"""

from __future__ import annotations

import fcntl
import os
import shutil
import subprocess
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from shared.infra.launcher import Stack
from shared.infra.settings import UNTHROTTLED

#: Bots pause between moves, so a watched game is still going when the page
#: looks, and bot games left running cost the 2 shared cores little.
BOT_PACE_MS = "60"
CHROMIUM = ("chromium", "chromium-browser")
HOW = (
    "The browser tests drive Debian's chromium. Install it with "
    "`sudo apt-get update && sudo apt-get install -y chromium` and run the tests again."
)


def _find() -> str | None:
    for name in CHROMIUM:
        found = shutil.which(name)
        if found:
            return found
    return None


def _apt(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    return subprocess.run(["apt-get", *args], capture_output=True, text=True, env=env, timeout=900)


def _install() -> str:
    if shutil.which("apt-get") is None:
        pytest.fail(f"chromium is not installed and this system has no apt-get. {HOW}", pytrace=False)
    if os.geteuid() != 0:
        pytest.fail(f"chromium is not installed, and installing it needs root. {HOW}", pytrace=False)
    # Two test sessions may start at once: one installs, the other waits for it.
    with open("/tmp/ziggurat-chromium.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        found = _find()
        if found:
            return found
        done = _apt("install", "-y", "--no-install-recommends", "chromium")
        if done.returncode != 0:
            # A fresh machine has no package lists yet.
            _apt("update")
            done = _apt("install", "-y", "--no-install-recommends", "chromium")
        found = _find()
        if done.returncode != 0 or found is None:
            pytest.fail(f"installing chromium failed:\n{done.stderr[-2000:]}\n{HOW}", pytrace=False)
        return found


@pytest.fixture(scope="session")
def chromium_path() -> str:
    return _find() or _install()


@pytest.fixture(scope="session")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    root: Path = tmp_path_factory.mktemp("web")
    running = Stack(root, partitions=4, env={**UNTHROTTLED, "ZIGGURAT_BOT_PACE_MS": BOT_PACE_MS})
    running.start()
    yield running
    running.stop()


@pytest.fixture(scope="session")
def api(web: Stack) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=web.api, timeout=30) as client:
        yield client


@pytest.fixture(scope="session")
def browser(chromium_path: str) -> Iterator[object]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=chromium_path,
            headless=True,
            # Containers often run as root with a small /dev/shm.
            args=["--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu"],
        )
        yield launched
        launched.close()


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[pytest.TestReport]:
    report = yield
    if report.when == "call":
        item.failed_call = report.failed  # type: ignore[attr-defined]
    return report


@pytest.fixture
def page(request: pytest.FixtureRequest, browser: object, web: Stack) -> Iterator[object]:
    """A fresh browser context per test (its own storage), errors collected; a
    failing test leaves a screenshot and the page's text in its report."""
    # English unless a test asks otherwise: the pages follow the browser's language.
    context = browser.new_context(  # type: ignore[attr-defined]
        base_url=web.api, viewport={"width": 1400, "height": 1000}, locale="en-GB"
    )
    context.set_default_timeout(20_000)
    opened = context.new_page()
    opened.errors = []  # type: ignore[attr-defined]
    opened.on("pageerror", lambda exc: opened.errors.append(str(exc)))  # type: ignore[attr-defined]
    yield opened
    if getattr(request.node, "failed_call", False):
        shot = web.root / f"{request.node.name}.png"
        opened.screenshot(path=str(shot), full_page=True)
        text = opened.inner_text("body")[-3000:]
        print(f"\n--- {opened.url}\n--- screenshot: {shot}\n--- errors: {opened.errors}\n{text}")
    context.close()
