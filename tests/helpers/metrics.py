"""Scraping ``GET /metrics`` for the tests: the text parsed by ``prometheus_client``'s
own parser, and a sample's value looked up by name and labels."""

from __future__ import annotations

import random

from prometheus_client.metrics_core import Metric
from prometheus_client.parser import text_string_to_metric_families

from tests.server.wsclient import WsClient, create, http_get, play_seat

__all__ = ["Scrape", "get", "scrape"]


async def get(
    port: int, path: str = "/metrics", headers: dict[str, str] | None = None
) -> tuple[int, dict[str, str], bytes]:
    """``GET /metrics`` with ``headers``: (status, headers, body)."""
    return await http_get(port, path, headers)


class Scrape:
    """One scrape: its text and its families, by name."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.families: dict[str, Metric] = {f.name: f for f in text_string_to_metric_families(text)}

    def value(self, sample: str, **labels: str) -> float:
        """The value of the sample named ``sample`` with exactly ``labels`` (KeyError if
        there is none)."""
        for family in self.families.values():
            for s in family.samples:
                if s.name == sample and s.labels == labels:
                    return float(s.value)
        raise KeyError((sample, labels))

    def values(self, sample: str) -> dict[tuple[tuple[str, str], ...], float]:
        """Every sample named ``sample``, by its labels."""
        return {
            tuple(sorted(s.labels.items())): float(s.value)
            for f in self.families.values()
            for s in f.samples
            if s.name == sample
        }


async def scrape(port: int, headers: dict[str, str] | None = None) -> Scrape:
    status, got, body = await get(port, headers=headers)
    assert status == 200, (status, body)
    assert got["content-type"].startswith("text/plain; version="), got
    return Scrape(body.decode())


async def game_against_a_bot(port: int, level: str, seed: int) -> WsClient:
    """A person's whole game against a server-side bot of ``level``: the person, still
    connected."""
    human = await WsClient.open(port, "h")
    bots = [{"seat": 1, "level": level}]
    await create(human, player="h", options={"players": 2}, bots=bots, seat=0)
    await human.send("ready")
    await play_seat(human, 0, random.Random(seed))
    return human
