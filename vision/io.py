"""Reading and validating photos: bytes or a path in, an upright BGR image out.

Only JPEG, PNG and WebP are read, told by their magic bytes (never by the file name), and
each one's size is read from its header before anything is decoded: a small file that
declares a huge image (a TIFF, BMP or any other format OpenCV would decode) never reaches
the decoder.  EXIF orientation is honoured (we apply it ourselves, the same way for every
format).  A file is read only if it is a regular file, and never more than the upload limit
of it, whatever its size claims.
"""

from __future__ import annotations

import os
import stat
import struct

import cv2
import numpy as np

from .errors import VisionError, not_an_image

MAX_BYTES = 20 * 1024 * 1024  # upload / file limit
MAX_PIXELS = 40_000_000  # refuse larger images (decompression bombs)
MIN_SIDE = 320  # below this no board can be read
WORK_LONG_SIDE = 1600  # images are brought down to this for reading
FORMATS = "JPEG, PNG or WebP"  # what `sniff` recognises, as the refusals name it


def sniff(data: bytes) -> str | None:
    """The image format from magic bytes: 'jpeg', 'png', 'webp', or None for anything else."""
    if data[:3] == b"\xff\xd8\xff":
        return "jpeg"
    if data[:8] == b"\x89PNG\r\n\x1a\n":
        return "png"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "webp"
    return None


def accepted_format(data: bytes) -> str:
    """The format of a photo we read ('jpeg', 'png' or 'webp'); anything else is refused, naming the formats."""
    fmt = sniff(data)
    if fmt is None:
        raise not_an_image(f"not a {FORMATS} file")
    return fmt


def _png_size(data: bytes) -> tuple[int, int] | None:
    if len(data) >= 24 and data[12:16] == b"IHDR":
        w, h = struct.unpack(">II", data[16:24])
        return w, h
    return None


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    i, n = 2, len(data)
    while i + 9 < n:
        if data[i] != 0xFF:
            i += 1
            continue
        marker = data[i + 1]
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7 or marker == 0xFF:
            i += 1 if marker == 0xFF else 2
            continue
        seglen = struct.unpack(">H", data[i + 2 : i + 4])[0]
        if marker in (0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF):
            h, w = struct.unpack(">HH", data[i + 5 : i + 9])
            return w, h
        i += 2 + seglen
    return None


def _webp_size(data: bytes) -> tuple[int, int] | None:
    chunk = data[12:16]
    try:
        if chunk == b"VP8X":
            w = 1 + int.from_bytes(data[24:27], "little")
            h = 1 + int.from_bytes(data[27:30], "little")
            return w, h
        if chunk == b"VP8 ":
            w, h = struct.unpack("<HH", data[26:30])
            return w & 0x3FFF, h & 0x3FFF
        if chunk == b"VP8L":
            b = int.from_bytes(data[21:25], "little")
            return (b & 0x3FFF) + 1, ((b >> 14) & 0x3FFF) + 1
    except struct.error:
        return None
    return None


HEADER_SIZE = {"png": _png_size, "jpeg": _jpeg_size, "webp": _webp_size}


def declared_size(data: bytes, fmt: str) -> tuple[int, int] | None:
    """(width, height) from the header, before any decoding (None if not told)."""
    return HEADER_SIZE[fmt](data)


def checked_size(data: bytes) -> tuple[int, int]:
    """The stored (width, height) of a photo we will decode, from its header alone.

    Raises VisionError unless the bytes are a JPEG, PNG or WebP whose header tells a size
    within MAX_PIXELS and at least MIN_SIDE a side: only then may the decoder see them.
    """
    if not data:
        raise not_an_image("empty file")
    fmt = accepted_format(data)
    size = declared_size(data, fmt)
    if size is None:
        raise VisionError(f"damaged {fmt.upper()} file: its header tells no image size", "damaged")
    w, h = size
    if w * h > MAX_PIXELS:
        raise VisionError(
            f"image too large ({w}x{h} = {w * h / 1e6:.0f} megapixels; limit {MAX_PIXELS // 10**6})", "too_many_pixels"
        )
    if min(w, h) < MIN_SIDE:
        raise VisionError(f"image too small ({w}x{h}; at least {MIN_SIDE} pixels a side)", "too_small")
    return size


def exif_orientation(data: bytes) -> int:
    """EXIF orientation tag (1..8) of a JPEG, WebP or PNG; 1 when absent."""
    idx = data.find(b"Exif\x00\x00")
    if idx < 0:
        return 1
    tiff = data[idx + 6 : idx + 6 + 65536]
    if len(tiff) < 8:
        return 1
    endian = "<" if tiff[:2] == b"II" else ">" if tiff[:2] == b"MM" else None
    if endian is None:
        return 1
    try:
        off = struct.unpack(endian + "I", tiff[4:8])[0]
        count = struct.unpack(endian + "H", tiff[off : off + 2])[0]
        for k in range(count):
            e = off + 2 + 12 * k
            tag, typ = struct.unpack(endian + "HH", tiff[e : e + 4])
            if tag == 0x0112:
                val = struct.unpack(endian + "H", tiff[e + 8 : e + 10])[0]
                return val if 1 <= val <= 8 else 1
    except struct.error:
        return 1
    return 1


def apply_orientation(img: np.ndarray, orientation: int) -> np.ndarray:
    if orientation == 2:
        return cv2.flip(img, 1)
    if orientation == 3:
        return cv2.rotate(img, cv2.ROTATE_180)
    if orientation == 4:
        return cv2.flip(img, 0)
    if orientation == 5:
        return cv2.flip(cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE), 1)
    if orientation == 6:
        return cv2.rotate(img, cv2.ROTATE_90_CLOCKWISE)
    if orientation == 7:
        return cv2.flip(cv2.rotate(img, cv2.ROTATE_90_COUNTERCLOCKWISE), 1)
    if orientation == 8:
        return cv2.rotate(img, cv2.ROTATE_90_COUNTERCLOCKWISE)
    return img


def _jpeg_complete(data: bytes) -> bool:
    tail = data.rstrip(b"\x00")[-2:]
    return tail == b"\xff\xd9"


def too_large(size: str) -> VisionError:
    return VisionError(f"image too large ({size}; limit {MAX_BYTES // 2**20} MB)", "too_large")


def read_file(path: str | os.PathLike) -> bytes:
    """A photo file's bytes: a regular file only, and at most MAX_BYTES of it whatever its size claims.

    Opened without blocking (a FIFO would wait for a writer) and checked on the open file, so
    /dev/zero, a pipe or a directory is refused in one line and nothing is read from it.
    """
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except FileNotFoundError:
        raise VisionError(f"no such file: {path}", "not_found") from None
    except OSError as exc:
        raise VisionError(f"cannot open {path}: {exc.strerror}", "not_found") from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        if stat.S_ISDIR(mode):
            raise not_an_image(f"{path} is a directory")
        raise not_an_image(f"{path} is not a regular file (a device, pipe or socket)")
    with open(fd, "rb") as file:
        data = file.read(MAX_BYTES + 1)  # a regular file: returns at its end or at the limit, never blocks
    if len(data) > MAX_BYTES:
        raise too_large(f"over {MAX_BYTES // 2**20} MB")
    return data


def load_bytes(source: bytes | bytearray | memoryview | str | os.PathLike) -> bytes:
    data = bytes(source) if isinstance(source, (bytes, bytearray, memoryview)) else read_file(source)
    if len(data) > MAX_BYTES:
        raise too_large(f"{len(data) / 1e6:.0f} MB")
    return data


def decode(data: bytes) -> np.ndarray:
    """Validated, upright BGR uint8 image, at most WORK_LONG_SIDE on its long side.

    Nothing reaches OpenCV's decoder before `checked_size` has read a safe size from the header.
    """
    checked_size(data)
    fmt = accepted_format(data)
    if fmt == "jpeg" and not _jpeg_complete(data):
        raise VisionError("truncated or damaged JPEG (no end marker)", "damaged")
    # IMREAD_IGNORE_ORIENTATION: we apply EXIF ourselves, the same way for every format
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR | cv2.IMREAD_IGNORE_ORIENTATION)
    if img is None:
        raise not_an_image(f"could not decode this {fmt.upper()} file (damaged?)")
    h, w = img.shape[:2]
    if h * w > MAX_PIXELS or min(h, w) < MIN_SIDE:  # the decoder disagreed with the header
        raise VisionError(f"damaged {fmt.upper()} file: its header says one size and its data another", "damaged")
    img = apply_orientation(img, exif_orientation(data))
    h, w = img.shape[:2]
    s = WORK_LONG_SIDE / max(h, w)
    if s < 1.0:
        img = cv2.resize(img, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA)
    return img


def read_image(source) -> np.ndarray:
    return decode(load_bytes(source))
