"""``ziggurat bot --strategy hard`` (issue 25): the CLI's bot plays its account's
seat at a level, the game's own search bot, on the table it folds from the
store, against one of our bots at another level; and its help names the levels."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx
import pytest

from shared.infra.launcher import REPO, Stack
from tests.support.accounts import bearer, register
from tests.support.waiting import eventually

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("stack"), pytest.mark.timeout(300)]


def test_the_help_names_the_levels() -> None:
    out = subprocess.run(
        [sys.executable, "-m", "shared.cli.main", "bot", "--help"], cwd=REPO, capture_output=True, text=True
    ).stdout
    assert "{easy,medium,hard,random,greedy}" in out
    assert "search" in out and "--redis" in out


def _hard_bot(stack: Stack, key: str, log: Path) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "shared.cli.main", "bot", "--api", stack.api, "--key", key]
    command += ["--strategy", "hard", "--redis", str(stack.redis_url), "--seed", "7"]
    with log.open("ab") as out:
        return subprocess.Popen(command, cwd=REPO, stderr=out, stdout=out, env={"ZIGGURAT_PARTITIONS": "4"})


async def test_a_hard_cli_bot_plays_its_seat_from_the_store(stack: Stack, tmp_path: Path) -> None:
    log = tmp_path / "hard.log"
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        host, key = await register(api, "Hard CLI bot")
        seats = [{"player_id": host}, {"bot": "easy"}]
        r = await api.post("/v1/casual", json={"game": "tigris-cards", "seats": seats}, headers=bearer(key))
        assert r.status_code == 201, r.text
        invitation = r.json()["invitation_id"]
        bot = _hard_bot(stack, key, log)
        try:

            async def opened() -> str | None:
                doc = (await api.get(f"/v1/casual/{invitation}")).json()
                return doc["table_id"] if doc["status"] == "open" else None

            table_id = await eventually(opened, 30)
            assert table_id is not None

            async def moved() -> bool | None:
                # Turns alternate: four moves are two of each seat's, the CLI bot's among them.
                r = await api.get(f"/v1/tables/{table_id}/view")
                return True if r.status_code == 200 and r.json()["moves"] >= 4 else None

            assert await eventually(moved, 90), log.read_text()
        finally:
            bot.kill()
            bot.wait()
        assert "Traceback" not in log.read_text()


@pytest.mark.parametrize("level", ["superhard", "HARD", "", "x" * 5_000])
def test_the_cli_bot_refuses_a_level_before_it_connects(level: str) -> None:
    # An API nobody listens on: the refusal comes before any connection is tried.
    command = [sys.executable, "-m", "shared.cli.main", "bot", "--api", "http://127.0.0.1:9", "--key", "k"]
    out = subprocess.run(
        [*command, "--strategy", level], cwd=REPO, capture_output=True, text=True, timeout=60
    )
    assert out.returncode == 2, out.stderr
    assert "invalid choice" in out.stderr and "easy" in out.stderr and "hard" in out.stderr
    assert "Traceback" not in out.stderr
