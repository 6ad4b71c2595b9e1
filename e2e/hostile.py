"""Hostile and careless clients of the companion server, for its tests and `bench/server_load.py`.

Each is a plain socket doing one bad thing (an image bomb, a head or body sent slowly or
stalled, a foreign Host or Origin), so what the server does about it can be watched from
outside. Only ever pointed at a server on 127.0.0.1.
"""

from __future__ import annotations

import socket
import struct
import time
import zlib
from typing import Callable

BOUNDARY = "----stones-hostile"


def tiff_bomb(width: int = 20_000, height: int = 20_000, rows_per_strip: int = 64) -> bytes:
    """A few kB of TIFF that decodes to width x height RGB pixels (400 MP, 1.2 GB, by default).

    Every strip is the same deflated run of zeros, stored once: the strip table points each
    strip at it.
    """
    strip = zlib.compress(bytes(width * 3 * rows_per_strip), 9)
    count = -(-height // rows_per_strip)
    header_size, entries = 8, 11
    ifd_size = 2 + 12 * entries + 4
    bits_at = header_size + ifd_size
    offsets_at = bits_at + 6
    counts_at = offsets_at + 4 * count
    strip_at = counts_at + 4 * count

    def entry(tag: int, kind: int, n: int, value: int) -> bytes:
        if kind == 3 and n == 1:
            return struct.pack("<HHIHH", tag, kind, n, value, 0)
        return struct.pack("<HHII", tag, kind, n, value)

    ifd = (
        struct.pack("<H", entries)
        + b"".join(
            [
                entry(256, 4, 1, width),
                entry(257, 4, 1, height),
                entry(258, 3, 3, bits_at),
                entry(259, 3, 1, 8),  # deflate
                entry(262, 3, 1, 2),  # RGB
                entry(273, 4, count, offsets_at),
                entry(277, 3, 1, 3),
                entry(278, 4, 1, rows_per_strip),
                entry(279, 4, count, counts_at),
                entry(284, 3, 1, 1),
                entry(317, 3, 1, 1),
            ]
        )
        + struct.pack("<I", 0)
    )
    return (
        b"II*\x00"
        + struct.pack("<I", header_size)
        + ifd
        + struct.pack("<3H", 8, 8, 8)
        + struct.pack(f"<{count}I", *[strip_at] * count)
        + struct.pack(f"<{count}I", *[len(strip)] * count)
        + strip
    )


def multipart(fields: dict[str, str], files: dict[str, tuple[str, bytes]]) -> tuple[bytes, str]:
    """A multipart/form-data body and its Content-Type."""
    parts = [
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode()
        for name, value in fields.items()
    ]
    parts += [
        f'--{BOUNDARY}\r\nContent-Disposition: form-data; name="{name}"; filename="{filename}"\r\n'
        f"Content-Type: application/octet-stream\r\n\r\n".encode()
        + data
        + b"\r\n"
        for name, (filename, data) in files.items()
    ]
    return b"".join(parts) + f"--{BOUNDARY}--\r\n".encode(), f"multipart/form-data; boundary={BOUNDARY}"


def request_head(
    port: int, method: str = "GET", path: str = "/", headers: dict[str, str] | None = None, host: str | None = None
) -> bytes:
    lines = [f"{method} {path} HTTP/1.1", f"Host: {host or f'127.0.0.1:{port}'}"]
    lines += [f"{name}: {value}" for name, value in (headers or {}).items()]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def upload_head(port: int, body_size: int, content_type: str, headers: dict[str, str] | None = None) -> bytes:
    return request_head(
        port, "POST", "/api/read", {"Content-Type": content_type, "Content-Length": str(body_size), **(headers or {})}
    )


def connect(port: int, source: str = "127.0.0.1", timeout: float = 30.0) -> socket.socket:
    """A connection to the server on 127.0.0.1:`port` from `source` (any 127.x.y.z: another client)."""
    sock = socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=(source, 0))
    sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    return sock


def read_answer(sock: socket.socket, limit: int = 1 << 20) -> bytes:
    """Everything the server sends until it closes the connection (or `limit` bytes, or the socket's timeout)."""
    data = b""
    try:
        while len(data) < limit:
            chunk = sock.recv(65536)
            if not chunk:
                break
            data += chunk
    except OSError:  # a timeout, a reset, or the socket closed under this reader
        pass
    return data


def status_of(answer: bytes) -> int:
    """The status code of the first HTTP answer in `answer` (0 if there is none)."""
    try:
        return int(answer.split(b" ", 2)[1]) if answer.startswith(b"HTTP/1.1 ") else 0
    except (IndexError, ValueError):
        return 0


def exchange(port: int, data: bytes, source: str = "127.0.0.1", timeout: float = 30.0) -> bytes:
    """Send a whole request (with `Connection: close` in it) and read the answer."""
    with connect(port, source, timeout) as sock:
        sock.sendall(data)
        return read_answer(sock)


def seconds_until_closed(sock: socket.socket, most: float) -> float:
    """How long the server keeps this connection open (reading and dropping what it sends), up to `most`."""
    started = time.monotonic()
    sock.settimeout(0.2)
    while time.monotonic() - started < most:
        try:
            if not sock.recv(65536):
                break
        except socket.timeout:
            continue
        except OSError:
            break
    return time.monotonic() - started


def dribble(sock: socket.socket, data: bytes, every: float, until: Callable[[], bool]) -> int:
    """Send `data` one byte every `every` seconds until it is sent, the server closes, or `until()`; bytes sent."""
    sent = 0
    for byte in data:
        if until():
            break
        try:
            sock.sendall(bytes([byte]))
        except OSError:
            break
        sent += 1
        time.sleep(every)
    return sent
