"""Invite codes of private tables: read off a screen or aloud without mistakes."""

from __future__ import annotations

from protocol import messages as m
from server.lobby import INVITE_ALPHABET, new_invite


def test_invite_codes_are_easy_to_read() -> None:
    codes = {new_invite() for _ in range(200)}
    assert len(codes) == 200
    for code in codes:
        groups = code.split("-")
        assert [len(g) for g in groups] == [4, 4, 4]
        assert set("".join(groups)) <= set(INVITE_ALPHABET)
        assert not set(code) & set("il1o0IO")
        m.JoinMsg(id=1, table="t", player="p", invite=code)  # a valid protocol invite
