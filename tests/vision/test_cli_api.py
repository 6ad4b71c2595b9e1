"""The CLI of SPEC section 5 and the POST /api/read endpoint."""

from __future__ import annotations

import asyncio
import gc
import json
import os
import subprocess
import sys
import weakref
from pathlib import Path

import cv2
import numpy as np
import pytest

from vision import api
from vision.cli import main

ROOT_E2E = Path(__file__).resolve().parents[2] / "e2e"
if str(ROOT_E2E) not in sys.path:
    sys.path.insert(0, str(ROOT_E2E))
from hostile import tiff_bomb  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
PHOTOS = Path(__file__).parent / "photos"


# photos these tests lean on (the accuracy itself is tested in test_pipeline.py)
SAMPLE = {
    "morris": "morris_3002",
    "three-stones": "three-stones_3000",
    "rings": "rings_3000",
    "sage-stones": "sage-stones_3002",
}


def _photo(game: str) -> Path:
    p = PHOTOS / f"{SAMPLE[game]}.jpg"
    if not p.exists():
        pytest.skip("no committed test photos")
    return p


def test_read_prints_position_json(capsys, tmp_path):
    photo = _photo("morris")
    dbg = tmp_path / "dbg.png"
    assert main(["read", str(photo), "--game", "morris", "--debug", str(dbg)]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["game"] == "morris"
    assert len(out["cells"]) == 24 and set(out["confidence"]) == set(out["cells"])
    assert all(v in (None, "white", "black") for v in out["cells"].values())
    assert all(0 <= c <= 1 for c in out["confidence"].values())
    assert len(out["board_corners"]) == 4
    assert dbg.exists() and dbg.stat().st_size > 10_000


def test_score_adds_engine_score(capsys):
    photo = _photo("three-stones")
    assert main(["score", str(photo), "--game", "three-stones"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["score"]["game"] == "three-stones"
    assert set(out["score"]["scores"]) >= {"white", "black"}


def test_failure_is_one_line_and_nonzero(capsys, tmp_path):
    bad = tmp_path / "x.jpg"
    bad.write_bytes(b"not an image")
    code = main(["read", str(bad), "--game", "rings"])
    cap = capsys.readouterr()
    assert code != 0 and cap.out == ""
    assert cap.err.count("\n") == 1 and "not an image" in cap.err


def test_cli_subprocess_no_traceback(tmp_path):
    bad = tmp_path / "t.jpg"
    bad.write_bytes(b"\xff\xd8\xff\xe0" + b"\x00" * 2000)  # a JPEG head, nothing else
    r = subprocess.run(
        [
            sys.executable,
            "-c",
            "import sys; from vision.cli import main; sys.exit(main(sys.argv[1:]))",
            "read",
            str(bad),
            "--game",
            "morris",
        ],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=120,
    )
    assert r.returncode != 0 and "Traceback" not in r.stderr and r.stderr.strip().count("\n") == 0


# ------------------------------------------------------------------ API (ASGI, no network)


def _call(app, body: bytes = b"", content_type: str | None = None, query: bytes = b"", method: str = "POST"):
    """The companion app's answer to one request to /api/read: (status, the JSON body)."""

    async def run():
        sent = []
        chunks = [body[i : i + 65536] for i in range(0, len(body), 65536)] or [b""]

        async def receive():
            if chunks:
                c = chunks.pop(0)
                return {"type": "http.request", "body": c, "more_body": bool(chunks)}
            return {"type": "http.disconnect"}

        async def send(msg):
            sent.append(msg)

        scope = {
            "type": "http",
            "method": method,
            "path": "/api/read",
            "raw_path": b"/api/read",
            "query_string": query,
            "headers": []
            if content_type is None
            else [(b"content-type", content_type.encode()), (b"content-length", str(len(body)).encode())],
            "http_version": "1.1",
            "scheme": "http",
            "server": ("127.0.0.1", 80),
            "client": ("127.0.0.1", 1),
            "root_path": "",
            "app": app,
        }
        await app(scope, receive, send)
        status = next(m["status"] for m in sent if m["type"] == "http.response.start")
        data = b"".join(m.get("body", b"") for m in sent if m["type"] == "http.response.body")
        return status, json.loads(data)

    return asyncio.run(run())


def _multipart(fields: dict, files: dict) -> tuple[bytes, str]:
    b = "----stonesboundary"
    parts = []
    for k, v in fields.items():
        parts.append(f'--{b}\r\nContent-Disposition: form-data; name="{k}"\r\n\r\n{v}\r\n'.encode())
    for k, (fname, data) in files.items():
        parts.append(
            f'--{b}\r\nContent-Disposition: form-data; name="{k}"; filename="{fname}"\r\n'
            f"Content-Type: application/octet-stream\r\n\r\n".encode()
            + data
            + b"\r\n"
        )
    parts.append(f"--{b}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={b}"


def test_api_reads_a_photo(app):
    photo = _photo("sage-stones")
    body, ctype = _multipart({"game": "sage-stones"}, {"image": ("whatever.txt", photo.read_bytes())})
    status, out = _call(app, body, ctype)
    assert status == 200, out
    assert out["game"] == "sage-stones" and len(out["cells"]) == 63 and "score" in out


def test_api_errors_are_clear_4xx(app):
    body, ctype = _multipart({"game": "morris"}, {"image": ("board.jpg", b"plain text pretending")})
    status, out = _call(app, body, ctype)
    assert status == 415 and out["code"] == "not_an_image"
    body, ctype = _multipart({}, {"image": ("b.jpg", b"\xff\xd8\xff")})
    status, out = _call(app, body, ctype)
    assert status == 400 and "game" in out["error"]
    body, ctype = _multipart({"game": "chess"}, {"image": ("b.jpg", b"\xff\xd8\xff")})
    assert _call(app, body, ctype)[0] == 400
    body, ctype = _multipart({"game": "morris"}, {})
    assert _call(app, body, ctype)[0] == 400


def test_api_upload_limit(app):
    big = b"\xff\xd8\xff" + b"\x00" * (21 * 1024 * 1024)
    body, ctype = _multipart({"game": "morris"}, {"image": ("big.jpg", big)})
    status, out = _call(app, body, ctype)
    assert status == 413 and out["code"] == "too_large"


def test_api_concurrent_requests(app):
    photo = _photo("morris").read_bytes()
    body, ctype = _multipart({"game": "morris"}, {"image": ("m.jpg", photo)})

    async def both():
        loop = asyncio.get_running_loop()
        return await asyncio.gather(*(loop.run_in_executor(None, _call, app, body, ctype) for _ in range(3)))

    results = asyncio.run(both())
    assert all(s == 200 for s, _ in results)
    assert results[0][1]["cells"] == results[1][1]["cells"] == results[2][1]["cells"]


# ------------------------------------------------------------------ what the CLI refuses up front (issue 20, items 6-7)


def _cli(*args: str, timeout: float = 60) -> subprocess.CompletedProcess:
    """The CLI in a child process held to 4 GB of address space: a file read without bound fails it, not the tests."""

    def cap_memory() -> None:
        import resource

        resource.setrlimit(resource.RLIMIT_AS, (4 << 30, 4 << 30))

    return subprocess.run(
        [sys.executable, "-m", "vision", *args],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=timeout,
        preexec_fn=cap_memory,
    )


def test_a_device_is_refused_without_being_read():
    """/dev/zero says its size is 0 and never ends: nothing of it is read."""
    r = _cli("read", "/dev/zero", "--game", "morris")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.count("\n") == 1 and "not a regular file" in r.stderr


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path):
    fifo = tmp_path / "photo.jpg"
    os.mkfifo(fifo)
    r = _cli("read", str(fifo), "--game", "morris", timeout=30)
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "not a regular file" in r.stderr


def test_a_directory_is_refused(tmp_path):
    r = _cli("read", str(tmp_path), "--game", "morris")
    assert r.returncode == 2 and r.stderr.count("\n") == 1 and "is a directory" in r.stderr


@pytest.mark.parametrize("debug", ["seen", "seen.xyz", ".", "no-such-folder/seen.png"])
def test_a_debug_path_that_cannot_be_written_is_refused_before_reading(capsys, tmp_path, monkeypatch, debug):
    photo = _photo("morris")
    monkeypatch.chdir(tmp_path)
    read = []
    monkeypatch.setattr("vision.pipeline.read_board", lambda *a: read.append(a))
    code = main(["read", str(photo), "--game", "morris", "--debug", debug])
    cap = capsys.readouterr()
    assert code == 2 and cap.out == "" and not read
    assert cap.err.count("\n") == 1 and "--debug" in cap.err


# ------------------------------------------------------------------ what the API decodes, and when (issue 20, item 1)


def test_api_refuses_a_tiff_bomb_without_decoding_it(app, no_decoding):
    body, ctype = _multipart({"game": "morris"}, {"image": ("bomb.tif", tiff_bomb())})
    status, out = _call(app, body, ctype)
    assert status == 415 and out["code"] == "not_an_image" and "JPEG, PNG or WebP" in out["error"]


def test_api_decodes_only_holding_a_reading_slot(app, monkeypatch):
    held = []
    real = cv2.imdecode

    def watching(buf, flags):
        held.append(api._slots._value < api.MAX_PARALLEL)  # one of the slots is taken: this reading's
        return real(buf, flags)

    monkeypatch.setattr(cv2, "imdecode", watching)
    body, ctype = _multipart({"game": "morris"}, {"image": ("grey.jpg", _grey_jpeg())})
    assert _call(app, body, ctype)[0] == 422
    assert held == [True]


def test_a_refused_photo_leaves_no_pixels_behind(app, monkeypatch):
    """The decoded photo of a refusal is freed as the refusal is answered, not at the next garbage collection."""
    decoded = []
    real = cv2.imdecode

    def tracking(buf, flags):
        image = real(buf, flags)
        decoded.append(weakref.ref(image))
        return image

    monkeypatch.setattr(cv2, "imdecode", tracking)
    body, ctype = _multipart({"game": "morris"}, {"image": ("grey.jpg", _grey_jpeg())})
    gc.collect()
    gc.disable()
    try:
        status, out = _call(app, body, ctype)
        alive = [ref for ref in decoded if ref() is not None]
    finally:
        gc.enable()
    assert status == 422 and out["code"] == "no_board", out
    assert decoded and not alive


def _grey_jpeg() -> bytes:
    """A flat grey photo: decoded, then refused as blank."""
    ok, buf = cv2.imencode(".jpg", np.full((900, 1200, 3), 128, np.uint8))
    assert ok
    return buf.tobytes()


def test_score_of_a_board_no_game_reaches_keeps_the_reading_and_says_why(capsys):
    """As the API does: the reading stands, unscored, with the rule the board breaks (here a
    photo whose two colours have all their stones placed, a sage-stones board no game reaches)."""
    photo = PHOTOS / "sage-stones_3002.jpg"
    assert main(["score", str(photo), "--game", "sage-stones"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["score"] is None and out["score_refused"]
    assert len(out["cells"]) == 63
