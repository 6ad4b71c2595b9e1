"""The CLI of SPEC section 5 and the POST /api/read endpoint."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from pathlib import Path

import pytest

from vision.cli import main

ROOT = Path(__file__).resolve().parents[2]
PHOTOS = Path(__file__).parent / "photos"


# photos these tests lean on (the accuracy itself is tested in test_pipeline.py)
SAMPLE = {"morris": "morris_3002", "three-stones": "three-stones_3000", "rings": "rings_3000",
          "sage-stones": "sage-stones_3002"}


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
    r = subprocess.run([sys.executable, "-c", "import sys; from vision.cli import main; sys.exit(main(sys.argv[1:]))",
                        "read", str(bad), "--game", "morris"], capture_output=True, text=True, cwd=ROOT, timeout=120)
    assert r.returncode != 0 and "Traceback" not in r.stderr and r.stderr.strip().count("\n") == 0


# ------------------------------------------------------------------ API (ASGI, no network)

def _call(app, body: bytes, content_type: str, query: bytes = b""):
    async def run():
        sent = []
        chunks = [body[i:i + 65536] for i in range(0, len(body), 65536)] or [b""]

        async def receive():
            if chunks:
                c = chunks.pop(0)
                return {"type": "http.request", "body": c, "more_body": bool(chunks)}
            return {"type": "http.disconnect"}

        async def send(msg):
            sent.append(msg)

        scope = {"type": "http", "method": "POST", "path": "/api/read", "raw_path": b"/api/read",
                 "query_string": query, "headers": [(b"content-type", content_type.encode()),
                                                    (b"content-length", str(len(body)).encode())],
                 "http_version": "1.1", "scheme": "http", "server": ("127.0.0.1", 80), "client": ("127.0.0.1", 1),
                 "root_path": "", "app": app}
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
        parts.append(f'--{b}\r\nContent-Disposition: form-data; name="{k}"; filename="{fname}"\r\n'
                     f"Content-Type: application/octet-stream\r\n\r\n".encode() + data + b"\r\n")
    parts.append(f"--{b}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={b}"


@pytest.fixture(scope="module")
def app():
    pytest.importorskip("starlette")
    from starlette.applications import Starlette

    from vision.api import routes
    return Starlette(routes=routes)


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
