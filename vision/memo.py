"""Work done once per photo: a result kept with the image it was computed from, dropped with it.

A reading asks the same question of one image many times over (the photo's grey copy in every
search stage, the line samples of one fit from the refinement and again from the evidence), so
`per_image` keeps each answer beside that image array, keyed by the call's other arguments, until
the array is freed (a weak reference's callback drops them: a later image that reuses the address
starts empty).  The images must not be changed in place while they are read (the reader never
does), and the cached answers are read-only arrays, so no caller can change them for the next.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Callable, Hashable
from typing import Any, TypeVar

import cv2
import numpy as np

from .layouts import Layout

Result = TypeVar("Result")


def _key(arg: Any) -> Hashable:
    """An argument as part of a cache key: an array by its exact values, anything else as it is."""
    if isinstance(arg, np.ndarray):
        return (arg.dtype.str, arg.shape, arg.tobytes())
    if isinstance(arg, Layout):  # a game's layout is the same wherever it is made (`layouts.get_layout`)
        return ("layout", arg.game)
    return arg


def _frozen(value: Any) -> Any:
    """The value with its arrays made read-only (a cached answer is shared by every caller)."""
    if isinstance(value, np.ndarray):
        value.flags.writeable = False
    elif isinstance(value, tuple):
        for item in value:
            _frozen(item)
    return value


_ALL_STORES: list[dict[int, dict[Hashable, Any]]] = []  # every `per_image` function's answers, by image


def forget(image: np.ndarray) -> None:
    """Drop what was kept for this image (a reading done: its photo may live on in the `Reading`,
    its grey copies and maps need not)."""
    for stores in _ALL_STORES:
        stores.pop(id(image), None)


def per_image(fn: Callable[..., Result]) -> Callable[..., Result]:
    """`fn(image, *args)` computed once per image and hashable (or array) `args`; the answers live
    as long as the image does, or until it is `forget`-ten."""
    stores: dict[int, dict[Hashable, Any]] = {}
    _ALL_STORES.append(stores)

    @functools.wraps(fn)
    def cached(image: np.ndarray, *args: Any) -> Result:
        store = stores.get(id(image))
        if store is None:
            store = stores.setdefault(id(image), {})
            weakref.finalize(image, stores.pop, id(image), None)
        key = tuple(_key(a) for a in args)
        if key not in store:
            store[key] = _frozen(fn(image, *args))
        return store[key]

    return cached


@per_image
def shrunk(image: np.ndarray, long_side: float) -> np.ndarray:
    """The image brought down to `long_side` pixels on its long side (area averaging), once per
    image and size: the search's small copy, the mid copies of the line graph, the honeycomb and
    the outline's support are taken again by every stage and every game a photo is searched for."""
    h, w = image.shape[:2]
    shrink = long_side / max(h, w)
    return cv2.resize(image, (round(w * shrink), round(h * shrink)), interpolation=cv2.INTER_AREA)


@per_image
def gray32(image: np.ndarray) -> np.ndarray:
    """The image's grey levels as float32 (the search's fits and refinements all start from them)."""
    return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
