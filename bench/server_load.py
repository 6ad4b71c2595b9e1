"""The companion server under load and under attack, with the memory it holds (issue 20's "Done when").

    python bench/server_load.py [--concurrent 50] [--uploads 200] [--hostile 20] [--photo P --game G]

Runs `python -m server` on 127.0.0.1 as `./stones start` does (the real limits) and, from
loopback only, measures three things, sampling the server's resident memory throughout:

1. `--concurrent` uploads of a real board photo at once, each from its own loopback address
   (127.0.3.n, as that many phones would be): every one must be answered 200.
2. `--uploads` uploads in a row of a 12-megapixel photo the reader decodes in full and then
   refuses (one flat colour): the path a refusal takes, whose pixels once outlived it; memory
   after each 50 must stay flat.
3. `--hostile` requests of each hostile kind at once: image bombs, an idle connection, a head
   sent a line every 2 s, a body at 100 B/s, a body stalled after 3 bytes, an upload stalled
   just short of 19 MB, a foreign Host, a foreign Origin; (a) all from one address, where the
   per-client caps hold, then (b) each from its own address, where only the global ones do.
   Meanwhile one real photo is uploaded by a well-behaved client from another address.
   Reported: the answers, how long the server kept each kind open, and the peak memory
   (target: under 1 GB).

Everything is bounded: each hostile client gives up after `HOSTILE_SECONDS` (the server's
longest wait for an upload slot plus its longest upload), the server is stopped at the end.
"""

from __future__ import annotations

import argparse
import socket
import statistics
import subprocess
import sys
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "e2e"))

from e2e_support import DIST, ensure_built, free_port  # noqa: E402  (e2e/ joins sys.path just above)
from hostile import (  # noqa: E402  (as above)
    connect,
    dribble,
    exchange,
    multipart,
    read_answer,
    request_head,
    seconds_until_closed,
    status_of,
    tiff_bomb,
    upload_head,
)

from server.limits import LIMITS  # noqa: E402

PHOTO = ROOT / "tests" / "vision" / "photos" / "three-stones_3000.jpg"
# a hostile client waits this long for the server to close on it: the longest wait for an upload slot, then
# the longest body, and a little
HOSTILE_SECONDS = LIMITS.queue_seconds + LIMITS.body_seconds + 10
ANSWER_SECONDS = 900.0  # a well-behaved upload waits this long for its answer (a queue of 50 on two busy cores)
MEMORY_TARGET_MB = 1024


class Memory:
    """The server's resident memory, sampled every `every` seconds in a thread."""

    def __init__(self, pid: int, every: float = 0.2) -> None:
        self.pid, self.every = pid, every
        self.peak = 0.0
        self.running = True
        self.thread = threading.Thread(target=self.sample, daemon=True)
        self.thread.start()

    def now(self) -> float:
        for line in Path(f"/proc/{self.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
        return 0.0

    def sample(self) -> None:
        while self.running:
            try:
                self.peak = max(self.peak, self.now())
            except OSError:
                return
            time.sleep(self.every)

    def reset_peak(self) -> None:
        self.peak = self.now()

    def stop(self) -> None:
        self.running = False
        self.thread.join(2)


def start_server(port: int) -> subprocess.Popen:
    process = subprocess.Popen(
        [sys.executable, "-m", "server", "--port", str(port), "--dist", str(DIST)],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if (
                status_of(exchange(port, request_head(port, "GET", "/api/read", {"Connection": "close"}), timeout=5))
                == 200
            ):
                return process
        except OSError:
            pass
        time.sleep(0.3)
    process.kill()
    raise SystemExit("python -m server did not start")


def upload(
    port: int, photo: bytes, game: str, source: str, headers: dict[str, str] | None = None, host: str | None = None
) -> int:
    body, content_type = multipart({"game": game}, {"image": ("photo.jpg", photo)})
    head = request_head(
        port,
        "POST",
        "/api/read",
        {"Content-Type": content_type, "Content-Length": str(len(body)), "Connection": "close", **(headers or {})},
        host,
    )
    return status_of(exchange(port, head + body, source, timeout=ANSWER_SECONDS))


def blank_photo() -> bytes:
    import cv2
    import numpy as np

    ok, data = cv2.imencode(".jpg", np.full((3000, 4000, 3), 128, np.uint8))
    assert ok
    return data.tobytes()


def png_bomb() -> bytes:
    """A PNG header declaring 30000 x 30000 pixels."""
    import struct
    import zlib

    ihdr = struct.pack(">IIBBBBB", 30000, 30000, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + struct.pack(">I", 13) + b"IHDR" + ihdr + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))


# ----- hostile clients: each returns (status of the answer or 0, seconds the connection was open) --------------
Outcome = tuple[int, float]


def closed_on(sock: socket.socket, started: float, send: Callable[[], None] | None = None) -> Outcome:
    """Run `send` (if any) while watching for the server's answer and close."""
    answers: list[bytes] = []
    closed = threading.Event()

    def watch() -> None:
        sock.settimeout(HOSTILE_SECONDS)
        answers.append(read_answer(sock))
        closed.set()

    watcher = threading.Thread(target=watch, daemon=True)
    watcher.start()
    if send is not None:
        threading.Thread(target=send, daemon=True).start()
    closed.wait(HOSTILE_SECONDS)
    return (status_of(answers[0]) if answers else 0), time.monotonic() - started


def bomb_upload(data: bytes, name: str) -> Callable[[int, str], Outcome]:
    def run(port: int, source: str) -> Outcome:
        body, content_type = multipart({"game": "morris"}, {"image": (name, data)})
        started = time.monotonic()
        with connect(port, source, HOSTILE_SECONDS) as sock:
            sock.sendall(upload_head(port, len(body), content_type) + body)
            return closed_on(sock, started)

    return run


def idle(port: int, source: str) -> Outcome:
    with connect(port, source, HOSTILE_SECONDS) as sock:
        return 0, seconds_until_closed(sock, HOSTILE_SECONDS)


def slow_head(port: int, source: str) -> Outcome:
    lines = request_head(port, headers={f"X-Line-{n}": "x" * 20 for n in range(60)}).split(b"\r\n")
    started = time.monotonic()
    with connect(port, source, HOSTILE_SECONDS) as sock:
        done = threading.Event()

        def send() -> None:
            for line in lines:
                if done.is_set():
                    return
                try:
                    sock.sendall(line + b"\r\n")
                except OSError:
                    return
                time.sleep(2.0)

        outcome = closed_on(sock, started, send)
        done.set()
        return outcome


def slow_body(port: int, source: str) -> Outcome:
    started = time.monotonic()
    with connect(port, source, HOSTILE_SECONDS) as sock:
        sock.sendall(upload_head(port, 19_000_000, "image/jpeg"))
        stop = threading.Event()
        outcome = closed_on(sock, started, lambda: dribble(sock, b"\xff" * 19_000, 0.01, stop.is_set))  # 100 B/s
        stop.set()
        return outcome


def stalled_body(port: int, source: str) -> Outcome:
    started = time.monotonic()
    with connect(port, source, HOSTILE_SECONDS) as sock:
        sock.sendall(upload_head(port, 1_000_000, "image/jpeg") + b"\xff\xd8\xff")
        return closed_on(sock, started)


STALLED_PAYLOAD = b"\xff" * 19_000_000


def stalled_19mb(port: int, source: str) -> Outcome:
    started = time.monotonic()
    with connect(port, source, HOSTILE_SECONDS) as sock:

        def send() -> None:
            sock.settimeout(15)
            try:
                sock.sendall(upload_head(port, 19_500_000, "image/jpeg") + STALLED_PAYLOAD)
            except OSError:  # the server is not reading it (yet): stalled all the same
                pass

        return closed_on(sock, started, send)


def foreign(headers: dict[str, str] | None = None, host: str | None = None) -> Callable[[int, str], Outcome]:
    photo = PHOTO.read_bytes()

    def run(port: int, source: str) -> Outcome:
        started = time.monotonic()
        return upload(port, photo, "morris", source, headers, host), time.monotonic() - started

    return run


HOSTILE: dict[str, Callable[[int, str], Outcome]] = {
    "TIFF bomb (6 kB, 400 MP)": bomb_upload(tiff_bomb(), "bomb.tif"),
    "PNG header bomb (900 MP)": bomb_upload(png_bomb(), "bomb.png"),
    "idle connection": idle,
    "head, a line every 2 s": slow_head,
    "body at 100 B/s": slow_body,
    "body stalled after 3 bytes": stalled_body,
    "upload stalled at 19 of 19.5 MB": stalled_19mb,
    "foreign Host (rebinding)": foreign(host="evil.example"),
    "foreign Origin": foreign({"Origin": "http://evil.example"}),
}


# ----- the phases ------------------------------------------------------------------------------------------
def concurrent_uploads(port: int, memory: Memory, count: int, photo: bytes, game: str) -> None:
    memory.reset_peak()
    started = time.monotonic()
    with ThreadPoolExecutor(count) as pool:
        statuses = list(pool.map(lambda n: upload(port, photo, game, f"127.0.3.{n + 1}"), range(count)))
    took = time.monotonic() - started
    answered = Counter(statuses)
    print(
        f"1. {count} concurrent uploads ({game} photo, {len(photo) // 1000} kB), each from its own address: "
        f"answers {dict(answered)}, {'no error' if answered == {200: count} else 'ERRORS'}; "
        f"{took:.0f} s in all; memory peak {memory.peak:.0f} MB",
        flush=True,
    )


def uploads_in_a_row(port: int, memory: Memory, count: int) -> None:
    photo = blank_photo()
    memory.reset_peak()
    statuses: Counter[int] = Counter()
    after: list[float] = []
    started = time.monotonic()
    for n in range(count):
        statuses[upload(port, photo, "morris", "127.0.0.1")] += 1
        if (n + 1) % 50 == 0 or n + 1 == count:
            after.append(memory.now())
    took = time.monotonic() - started
    print(
        f"2. {count} uploads in a row (4000x3000 JPEG, {len(photo) // 1000} kB, decoded then refused as blank): "
        f"answers {dict(statuses)}, {took / count:.2f} s each; memory after each 50: "
        f"{', '.join(f'{m:.0f}' for m in after)} MB (growth {after[-1] - after[0]:+.0f} MB), "
        f"peak {memory.peak:.0f} MB",
        flush=True,
    )


def under_attack(port: int, memory: Memory, each: int, photo: bytes, game: str, spread: bool) -> None:
    """`each` requests of every hostile kind at once, from one address or each from its own."""
    memory.reset_peak()
    jobs = [(kind, n) for n in range(each) for kind in HOSTILE]
    with ThreadPoolExecutor(len(jobs) + 1) as pool:
        futures = {
            job: pool.submit(HOSTILE[job[0]], port, f"127.0.4.{index + 1}" if spread else "127.0.4.1")
            for index, job in enumerate(jobs)
        }
        time.sleep(1.0)  # the attack is under way
        good_started = time.monotonic()
        good_status = pool.submit(upload, port, photo, game, "127.0.5.1").result()
        good_took = time.monotonic() - good_started
        outcomes = {job: future.result() for job, future in futures.items()}
    origin = "each from its own address" if spread else "all from one address"
    print(
        f"{'3b' if spread else '3a'}. {each} of each hostile kind at once ({len(jobs)} connections, {origin}):",
        flush=True,
    )
    for kind in HOSTILE:
        results = [outcomes[(kind, n)] for n in range(each)]
        statuses = Counter(status for status, _ in results)
        seconds = [took for _, took in results]
        still_open = sum(took >= HOSTILE_SECONDS for took in seconds)
        print(
            f"   {kind:<33} answers {dict(statuses)}; open {statistics.median(seconds):.1f} s median, "
            f"{max(seconds):.1f} s max{f', {still_open} still open at the end' if still_open else ''}",
            flush=True,
        )
    print(f"   a well-behaved upload from another address meanwhile: {good_status} after {good_took:.0f} s", flush=True)
    verdict = "under" if memory.peak < MEMORY_TARGET_MB else "OVER"
    print(f"   memory peak {memory.peak:.0f} MB ({verdict} the {MEMORY_TARGET_MB} MB target)", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--concurrent", type=int, default=50, help="uploads at once in part 1 (0: skip)")
    parser.add_argument("--uploads", type=int, default=200, help="uploads in a row in part 2 (0: skip)")
    parser.add_argument("--hostile", type=int, default=20, help="requests of each hostile kind in part 3 (0: skip)")
    parser.add_argument("--photo", type=Path, default=PHOTO, help="the real board photo uploaded")
    parser.add_argument("--game", default="three-stones", help="its game")
    args = parser.parse_args()
    if not 0 <= args.concurrent <= 250 or not 0 <= args.hostile <= 25 or not 0 <= args.uploads <= 1000:
        parser.error("bounded: --concurrent up to 250, --uploads up to 1000, --hostile up to 25")
    ensure_built()
    port = free_port()
    process = start_server(port)
    memory = Memory(process.pid)
    try:
        photo = args.photo.read_bytes()
        print(f"python -m server on 127.0.0.1:{port}, pid {process.pid}: {memory.now():.0f} MB at rest", flush=True)
        if args.concurrent:
            concurrent_uploads(port, memory, args.concurrent, photo, args.game)
        if args.uploads:
            uploads_in_a_row(port, memory, args.uploads)
        for spread in (False, True) if args.hostile else ():
            under_attack(port, memory, args.hostile, photo, args.game, spread)
        print(f"at the end: {memory.now():.0f} MB", flush=True)
    finally:
        memory.stop()
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()


if __name__ == "__main__":
    main()
