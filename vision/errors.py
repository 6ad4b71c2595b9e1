"""The one error the vision companion raises: a one-line reason a person can act on."""

from __future__ import annotations


class VisionError(Exception):
    """A photo that cannot be read.  `code` is a short machine tag, `str(err)` one line."""

    def __init__(self, reason: str, code: str = "unreadable", status: int = 422):
        reason = " ".join(str(reason).split())  # always one line
        super().__init__(reason)
        self.reason = reason
        self.code = code
        self.status = status

    def __str__(self) -> str:
        return self.reason


def not_an_image(detail: str = "") -> VisionError:
    return VisionError("not an image" + (f": {detail}" if detail else ""), "not_an_image", 415)
