"""The one error the vision companion raises: a one-line reason a person can act on."""

from __future__ import annotations


class VisionError(Exception):
    """A photo that cannot be read.  `code` is a short machine tag, `str(err)` one line.

    It says nothing of HTTP: the server maps each code to a status (`server.errors`).
    """

    def __init__(self, reason: str, code: str = "unreadable"):
        reason = " ".join(str(reason).split())  # always one line
        super().__init__(reason)
        self.reason = reason
        self.code = code

    def __str__(self) -> str:
        return self.reason


def not_an_image(detail: str = "") -> VisionError:
    return VisionError("not an image" + (f": {detail}" if detail else ""), "not_an_image")
