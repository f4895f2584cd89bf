"""The admin endpoint in the tests: a request through a server's admin socket (the
command's own function), and a chat line that tells whether it was said."""

from __future__ import annotations

import asyncio
from typing import Any

from server.app import Server
from server.commands.admin import request
from tests.server.wsclient import WsClient


async def ask(server: Server, action: str, **fields: Any) -> dict[str, Any]:
    """One request through the server's admin socket (the command's own function)."""
    assert server.admin is not None
    return await asyncio.to_thread(request, str(server.admin.path), {"action": action, **fields})


async def say(client: WsClient, text: str) -> str:
    """Send a chat line: "said" once it comes back, else the error code refusing it."""
    start = len(client.msgs)
    sent = await client.send("chat", text=text)
    got = await client.wait_for(
        lambda x: (x.type == "error" and x.re == sent) or (x.type == "chat" and x.text == text),
        start=start,
    )
    return "said" if got.type == "chat" else str(got.code)
