"""What one client, or all of them together, can make the server hold, and for how long.

uvicorn alone waits forever for a request's head or body, and reads any number of uploads at
once: an idle socket, a head sent a line every few seconds, a body at 100 B/s or twenty
uploads stalled just short of the size limit were all held open (issue 20). Here:

- `GuardedProtocol` (the connection): a request's head must be complete within
  `head_seconds` of the connection opening or of the last answer; a connection beyond
  `connections` in all or `connections_per_client` from one address is refused at once.
- `UploadLimits` (the request): a request with a body waits for one of `uploads` slots (a
  queue of at most `waiting_uploads`, each for at most `queue_seconds`, and
  `uploads_per_client` per address), then its body must keep coming (`body_gap_seconds`)
  and be complete within `body_seconds`.
"""

from __future__ import annotations

import asyncio
from collections import Counter
from dataclasses import dataclass
from typing import Any

import h11
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from uvicorn.protocols.http.h11_impl import H11Protocol

from .errors import refusal


@dataclass(frozen=True)
class Limits:
    idle_seconds: float = 5.0  # a kept-alive connection with no new request is closed after this
    head_seconds: float = 10.0  # a request's head (a few hundred bytes) comes at once; dribbled, it is a slowloris
    head_bytes: int = 16 * 1024  # a request's head beyond this is refused (h11's own default)
    body_gap_seconds: float = 10.0  # a silence this long in the middle of an upload: the sender has stalled
    body_seconds: float = 60.0  # a whole upload: 20 MB in a minute is 2.7 Mbit/s, a phone on Wi-Fi takes seconds
    uploads: int = 4  # uploads held at once (arriving, queued for the reader, read): 4 x 20 MB at most
    uploads_per_client: int = 2  # one address's share (half the slots): a second photo chosen while one is read
    waiting_uploads: int = 64  # uploads queued for a slot, a socket and 64 kB each; more are refused (503)
    queue_seconds: float = 180.0  # the longest wait for a slot: the whole queue, read 2 at a time at 5 s a photo
    connections: int = 512  # open connections in all: well under the usual limit of 1024 open files
    connections_per_client: int = 32  # a browser opens 6 a host; a page, its workers and a few tabs stay under


LIMITS = Limits()


def _plain_answer(status: str, reason: str) -> bytes:
    """A whole HTTP answer that closes the connection, for the moments there is no request to answer."""
    body = reason.encode() + b"\n"
    return (
        f"HTTP/1.1 {status}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: {len(body)}\r\n"
        f"connection: close\r\n\r\n"
    ).encode() + body


def _client_host(connection: object) -> str | None:
    """A uvicorn connection's peer address: HTTP and WebSocket protocols set `client`, the auto-picking ones do not."""
    client = getattr(connection, "client", None)
    return client[0] if client else None


class GuardedProtocol(H11Protocol):
    """uvicorn's HTTP/1.1 protocol with a deadline on each request's head and a cap on connections.

    It reads uvicorn's `cycle`, `conn` and `connections` (uvicorn is pinned in pyproject.toml).
    """

    def __init__(self, *args: Any, limits: Limits = LIMITS, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.limits = limits
        self.head_timer: asyncio.TimerHandle | None = None

    def connection_made(self, transport: Any) -> None:
        super().connection_made(transport)
        address = self.client[0] if self.client else None
        from_client = sum(1 for other in self.connections if address is not None and _client_host(other) == address)
        if len(self.connections) > self.limits.connections:
            self.refuse("503 Service Unavailable", "server busy: too many connections")
        elif from_client > self.limits.connections_per_client:
            self.refuse("429 Too Many Requests", "too many connections from this address")
        else:
            self.await_head()

    def connection_lost(self, exc: Exception | None) -> None:
        self.cancel_head_timer()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        super().data_received(data)
        if self.request_in_flight():
            self.cancel_head_timer()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and not self.request_in_flight():
            # the rest of a refused upload may still be arriving: it too must end within head_seconds
            self.await_head()

    def request_in_flight(self) -> bool:
        return self.cycle is not None and not self.cycle.response_complete

    def await_head(self) -> None:
        self.cancel_head_timer()
        self.head_timer = self.loop.call_later(self.limits.head_seconds, self.head_timed_out)

    def cancel_head_timer(self) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None

    def head_timed_out(self) -> None:
        self.head_timer = None
        if not self.request_in_flight() and not self.transport.is_closing():
            self.refuse("408 Request Timeout", f"no complete request within {self.limits.head_seconds:g} s")

    def refuse(self, status: str, reason: str) -> None:
        if self.conn.our_state is not h11.SEND_BODY:  # never in the middle of an answer
            self.transport.write(_plain_answer(status, reason))
        self.transport.close()


def has_body(scope: Scope) -> bool:
    headers = Headers(scope=scope)
    return "transfer-encoding" in headers or headers.get("content-length", "0").strip() not in ("", "0")


class UploadLimits:
    """Requests with a body take turns for a few slots, and their bodies must arrive in time."""

    def __init__(self, app: ASGIApp, limits: Limits = LIMITS) -> None:
        self.app = app
        self.limits = limits
        self.slots = asyncio.Semaphore(limits.uploads)  # bound to the server's loop at first use
        self.waiting = 0
        self.per_client: Counter[str] = Counter()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not has_body(scope):
            await self.app(scope, receive, send)
            return
        client = scope["client"][0] if scope.get("client") else ""
        if self.per_client[client] >= self.limits.uploads_per_client:
            await refusal(
                f"too many uploads at once from this address (limit {self.limits.uploads_per_client})",
                "too_many_requests",
                {"retry-after": "5"},
            )(scope, receive, send)
            return
        if self.waiting >= self.limits.waiting_uploads:
            await refusal("server busy: too many uploads waiting", "busy", {"retry-after": "10"})(scope, receive, send)
            return
        self.per_client[client] += 1
        try:
            if await self.take_a_slot():
                try:
                    await BodyDeadlines(self.app, self.limits)(scope, receive, send)
                finally:
                    self.slots.release()
            else:
                await refusal(
                    f"server busy: no upload slot came free in {self.limits.queue_seconds:g} s",
                    "busy",
                    {"retry-after": "10"},
                )(scope, receive, send)
        finally:
            self.per_client[client] -= 1
            if not self.per_client[client]:
                del self.per_client[client]

    async def take_a_slot(self) -> bool:
        """Wait in the queue for a slot, at most `queue_seconds`; False if none came free."""
        self.waiting += 1
        try:
            await asyncio.wait_for(self.slots.acquire(), self.limits.queue_seconds)
            return True
        except asyncio.TimeoutError:
            return False
        finally:
            self.waiting -= 1


class BodyDeadlines:
    """One request whose body must keep coming and end in time; a late one is answered 408 and closed."""

    def __init__(self, app: ASGIApp, limits: Limits) -> None:
        self.app = app
        self.limits = limits
        self.deadline: float | None = None
        self.body_done = False
        self.timed_out = False
        self.response_started = False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        async def receive_in_time() -> Message:
            if self.timed_out:
                return {"type": "http.disconnect"}
            if self.body_done:  # what follows is only the news of a disconnect: no deadline for it
                return await receive()
            loop = asyncio.get_running_loop()
            if self.deadline is None:
                self.deadline = loop.time() + self.limits.body_seconds
            wait = min(self.limits.body_gap_seconds, self.deadline - loop.time())
            try:
                message = await asyncio.wait_for(receive(), max(wait, 0.0))
            except asyncio.TimeoutError:
                await self.time_out(scope, send)
                return {"type": "http.disconnect"}
            self.body_done = message["type"] != "http.request" or not message.get("more_body", False)
            return message

        async def send_unless_timed_out(message: Message) -> None:
            if self.timed_out:  # the 408 has been sent: whatever the app says after it goes nowhere
                return
            self.response_started = True
            await send(message)

        try:
            await self.app(scope, receive_in_time, send_unless_timed_out)
        except Exception:
            if not self.timed_out:  # the app's failure to read a body that never came is no failure
                raise

    async def time_out(self, scope: Scope, send: Send) -> None:
        self.timed_out = True
        if self.response_started:
            return
        answer = refusal(
            f"the upload did not arrive in time (a pause over {self.limits.body_gap_seconds:g} s, "
            f"or over {self.limits.body_seconds:g} s in all)",
            "timeout",
            {"connection": "close"},
        )
        await answer(scope, _nothing_more, send)


async def _nothing_more() -> Message:
    return {"type": "http.disconnect"}
