"""``kupferkessel serve`` as a child process, for the tests of what an operator sees:
its port once listening, its log lines, its exit."""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


KUPFERKESSEL = Path(sys.executable).parent / "kupferkessel"


class ServeProcess:
    """``kupferkessel serve --port 0`` as a child process; stderr collected line by line."""

    def __init__(self, proc: asyncio.subprocess.Process) -> None:
        self.proc = proc
        self.lines: list[str] = []
        self.port = asyncio.get_running_loop().create_future()
        self._reader = asyncio.create_task(self._read())

    @classmethod
    async def start(cls, *args: str, group: bool = False) -> ServeProcess:
        """``group``: in a process group of its own, as a terminal runs a command."""
        proc = await asyncio.create_subprocess_exec(
            str(KUPFERKESSEL),
            "serve",
            "--port",
            "0",
            "--no-persist",
            *args,
            stdin=asyncio.subprocess.DEVNULL,
            stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.PIPE,
            cwd=ROOT,
            env={**os.environ, "KK_HOST": "127.0.0.1"},
            start_new_session=group,
        )
        serve = cls(proc)
        async with asyncio.timeout(30):
            await asyncio.shield(serve.port)
        return serve

    async def _read(self) -> None:
        assert self.proc.stderr is not None
        async for raw in self.proc.stderr:
            line = raw.decode()
            self.lines.append(line)
            if not self.port.done() and '"listening"' in line:
                self.port.set_result(json.loads(line)["port"])
        if not self.port.done():
            self.port.set_exception(RuntimeError("".join(self.lines)))

    async def stop(self, sig: int) -> int:
        self.proc.send_signal(sig)
        async with asyncio.timeout(15):
            code = await self.proc.wait()
            await self._reader
        return code

    def records(self) -> list[dict[str, object]]:
        return [json.loads(line) for line in self.lines]
