"""A seat token acts only for its own seat, reads only its own view, at its own table."""

from __future__ import annotations

import httpx
import pytest

from shared.cli import botclient
from shared.infra.launcher import Stack
from shared.kernel.legal_groups import expand

pytestmark = [pytest.mark.e2e, pytest.mark.xdist_group("stack"), pytest.mark.timeout(300)]


async def test_tokens_are_bound_to_one_seat_at_one_table(stack: Stack) -> None:
    async with httpx.AsyncClient(base_url=stack.api, timeout=30) as api:
        a = await botclient.open_table(api, "highcard", 2)
        b = await botclient.open_table(api, "highcard", 2)
        # Each token sees its own hand, and nothing but its own hand.
        views = [await botclient.view(api, a, seat) for seat in (0, 1)]
        assert [v["seat"] for v in views] == [0, 1]
        assert views[0]["view"]["hand"] != views[1]["view"]["hand"]
        spectator = await botclient.view(api, a, None)
        assert spectator["view"]["hand"] is None and spectator["legal"] == []
        # There is no way to name a seat: the token decides it.
        actor = spectator["actors"][0]
        idle = 1 - actor
        move = {"command": expand(views[actor]["legal"])[0]}
        r = await api.post(
            f"/v1/tables/{a.table_id}/commands", json=move, headers=botclient.auth(a.tokens[idle])
        )
        assert r.json()["code"] in {"not_your_turn", "card_not_in_hand"}
        # A token from another table is refused here, for reads and for moves.
        foreign = botclient.auth(b.tokens[actor])
        r = await api.post(f"/v1/tables/{a.table_id}/commands", json=move, headers=foreign)
        assert (r.status_code, r.json()["code"]) == (403, "bad_token")
        r = await api.get(f"/v1/tables/{a.table_id}/view", headers=foreign)
        assert (r.status_code, r.json()["code"]) == (403, "bad_token")
        r = await api.get(f"/v1/tables/{a.table_id}/audit")
        assert r.json()["code"] == "game_not_over", "the full log stays closed while the game runs"
