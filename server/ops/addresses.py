"""Client addresses as the operator's sanctions name them: one IPv4 or IPv6 address, or
a range of them in CIDR notation (``203.0.113.0/24``, ``2001:db8::/48``).

Why a module of its own: an address is parsed once, by the standard ``ipaddress``
module, where a sanction is made (``address_target``: anything else is refused with a
clear message, so ``not-an-ip`` or ``127.000.004.001`` is never stored as if it were a
ban), and a connection's address is then compared as an address (``covers``), so a ban
of a range covers every address in it and an IPv4 client seen through an IPv6 socket
(``::ffff:203.0.113.7``) is the IPv4 address it is.
"""

from __future__ import annotations

import ipaddress
from functools import lru_cache

__all__ = ["IpNetwork", "address_target", "covers", "network_of"]

IpNetwork = ipaddress.IPv4Network | ipaddress.IPv6Network


def address_target(text: str) -> str:
    """The sanction's stored form of the operator's ``text``: an address
    (``203.0.113.7``, ``2001:db8::1``) or a range (``203.0.113.0/24``), compressed and
    lower-case. ``ValueError`` with a message for anything else (a name, leading zeros,
    a range with bits set after its prefix)."""
    text = text.strip()
    try:
        if "/" in text:
            network = ipaddress.ip_network(text, strict=True)
            if network.num_addresses > 1:
                return network.compressed
            return str(network.network_address)
        address = ipaddress.ip_address(text)
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)  # the client it names is compared as IPv4
        return address.compressed
    except ValueError as e:
        reason = str(e)
        if "has host bits set" in reason:
            wider = ipaddress.ip_network(text, strict=False).compressed
            raise ValueError(
                f"{text[:60]!r} is not a range: its address has bits set past the prefix"
                f" (the range is {wider})"
            ) from None
        raise ValueError(
            f"{text[:60]!r} is not an IP address: give one (203.0.113.7, 2001:db8::1)"
            " or a range in CIDR notation (203.0.113.0/24, 2001:db8::/48)"
        ) from None


@lru_cache(maxsize=4096)
def network_of(value: str) -> IpNetwork | None:
    """The range a stored sanction's ``value`` names (an address is a range of one);
    None for a value that is no address (one stored before addresses were parsed:
    such a sanction still covers that exact text, nothing else)."""
    try:
        return ipaddress.ip_network(value.strip(), strict=False)
    except ValueError:
        return None


@lru_cache(maxsize=4096)
def _address(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        address = ipaddress.ip_address(host.strip().strip("[]"))
    except ValueError:
        return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def covers(value: str, host: str) -> bool:
    """Whether the sanction of address ``value`` covers a client at ``host``."""
    network = network_of(value)
    if network is None:
        return value == host
    address = _address(host)
    return address is not None and address.version == network.version and address in network
