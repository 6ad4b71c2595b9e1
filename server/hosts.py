"""Who may talk to the server: the names it serves on, its own pages, and the addresses it prints.

A request whose Host header names anything else is refused (a DNS-rebinding page at
`evil.example` that resolves to 127.0.0.1 reaches the socket but not the app), and so is a
request whose Origin is another site (a cross-site POST would spend our CPU on its photos).
With `--lan` the server also answers on this machine's network addresses, found from its
interfaces (the host name often resolves to 127.0.0.1 only, in containers and some
distributions), and those are the addresses it prints and accepts.
"""

from __future__ import annotations

import ipaddress
import socket
import struct
import sys
from typing import Sequence

from starlette.datastructures import Headers
from starlette.types import ASGIApp, Receive, Scope, Send

from .errors import refusal

LOOPBACK_NAMES = ("localhost", "127.0.0.1", "::1")
# One address in each private range: the route the kernel picks towards each names the address a
# phone on that network would dial. A UDP socket is only "connected" (a route lookup), nothing is sent.
PROBE_ADDRESSES = ("192.168.255.255", "10.255.255.255", "172.31.255.255")
SIOCGIFADDR = 0x8915  # Linux: the IPv4 address of a named interface


def host_name(host_header: str) -> str:
    """The name in a Host header, without its port: `[::1]:8000` -> `::1`, `Example:80` -> `example`."""
    host = host_header.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


class SameOriginOnly:
    """Answers only requests for `hosts`, and only from the server's own pages when they say where from."""

    def __init__(self, app: ASGIApp, hosts: Sequence[str]) -> None:
        self.app = app
        self.hosts = frozenset(name.lower() for name in hosts)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        host = headers.get("host", "")
        if host_name(host) not in self.hosts:
            answer = refusal(f"this server does not serve the host {host[:100]!r}", "bad_host")
        elif "origin" in headers and headers["origin"].lower() != f"{scope['scheme']}://{host}".lower():
            answer = refusal("cross-origin requests are refused: open the app from this server", "cross_origin")
        else:
            await self.app(scope, receive, send)
            return
        await answer(scope, receive, send)


def usable(address: str) -> bool:
    """An address another machine could reach us on (not loopback, link-local or unspecified)."""
    ip = ipaddress.ip_address(address)
    return not (ip.is_loopback or ip.is_link_local or ip.is_unspecified or ip.is_multicast)


def routed_addresses() -> list[str]:
    """The source address of the route towards each private range."""
    found = []
    for probe in PROBE_ADDRESSES:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
            try:
                sock.connect((probe, 9))
                found.append(sock.getsockname()[0])
            except OSError:  # no route to that range
                continue
    return found


def interface_addresses() -> list[str]:
    """Each network interface's IPv4 address (Linux; elsewhere the routes and the host name tell)."""
    if not sys.platform.startswith("linux"):
        return []
    import fcntl

    found = []
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        for _, name in socket.if_nameindex():
            try:
                reply = fcntl.ioctl(sock.fileno(), SIOCGIFADDR, struct.pack("256s", name.encode()[:15]))
            except OSError:  # an interface with no IPv4 address
                continue
            found.append(socket.inet_ntoa(reply[20:24]))
    return found


def hostname_addresses() -> list[str]:
    try:
        infos = socket.getaddrinfo(socket.gethostname(), None, socket.AF_INET)
        return [host for *_, address in infos if isinstance(host := address[0], str)]  # AF_INET: (host, port)
    except OSError:
        return []


def lan_addresses() -> list[str]:
    """Every IPv4 address a phone on this machine's networks could dial, the default route's first."""
    found = [*routed_addresses(), *interface_addresses(), *hostname_addresses()]
    return [address for address in dict.fromkeys(found) if usable(address)]
