"""What a phone makes of the light Blender rendered: white balance, exposure, defocus or a
moving hand, sensor noise, its tone curve, sharpening, the size it saves and JPEG.

Works on the render's scene-linear RGB (no clipping yet), its own chain rather than the
POV-Ray generator's, and moves no pixel: the ground truth only scales with the saved size.
"""

from __future__ import annotations

import math

import cv2
import numpy as np

MIDDLE_GREY = (0.14, 0.26)  # the metered log-average of the scene is exposed to this linear grey
METERING_SPREAD = 0.3  # the metering weight's standard deviation, as a share of the frame
HIGHLIGHT_HEADROOM = 6.0  # the brightest 0.3% may reach this before the exposure is pulled down
SAVED_SCALES = (1.0, 0.8, 0.6)  # 1600 px, 1280 px, 960 px (720p) wide photos
SAVED_SHARES = (0.65, 0.2, 0.15)


def linear_to_srgb(x: np.ndarray) -> np.ndarray:
    x = np.clip(x, 0.0, 1.0)
    return np.where(x <= 0.0031308, x * 12.92, 1.055 * np.power(x, 1 / 2.4) - 0.055)


def tone_curve(x: np.ndarray, kind: str, contrast: float) -> np.ndarray:
    """A phone's highlight roll-off: ACES's fitted curve or an extended Reinhard, then contrast."""
    if kind == "aces":
        y = (x * (2.51 * x + 0.03)) / (x * (2.43 * x + 0.59) + 0.14)
    else:
        white = 4.0
        y = x * (1 + x / white**2) / (1 + x)
    y = np.clip(y, 0.0, 1.0)
    return np.clip(0.5 + (y - 0.5) * contrast, 0.0, 1.0) if contrast != 1.0 else y


def disc_kernel(radius: float) -> np.ndarray:
    """A lens out of focus: a uniform disc."""
    k = int(math.ceil(radius)) * 2 + 1
    yy, xx = np.mgrid[:k, :k] - k // 2
    kernel = np.clip(radius + 0.5 - np.hypot(xx, yy), 0.0, 1.0).astype(np.float32)
    return kernel / kernel.sum()


def streak_kernel(length: float, angle_deg: float) -> np.ndarray:
    """A hand that moved while the shutter was open: a short straight streak."""
    k = int(math.ceil(length)) | 1
    kernel: np.ndarray = np.zeros((k, k), np.float32)
    kernel[k // 2, :] = 1.0
    turn = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), angle_deg, 1.0)
    kernel = cv2.warpAffine(kernel, turn, (k, k))
    return kernel / kernel.sum()


def develop(linear: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, dict]:
    """The phone's picture (uint8 BGR, the rendered size) of a scene-linear RGB render."""
    f: np.ndarray = linear.astype(np.float32)
    # auto white balance, partly: the grey-world gains, taken only so far
    means = f.reshape(-1, 3).mean(axis=0) + 1e-6
    awb = float(rng.uniform(0.3, 0.9))
    gains = (means.mean() / means) ** awb
    f *= gains.astype(np.float32)
    # auto exposure on the centre-weighted log-average (the board is what the phone is held over),
    # held down where highlights would burn out
    h, w = f.shape[:2]
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    weight = np.exp(-(((xx - w / 2) / (METERING_SPREAD * w)) ** 2 + ((yy - h / 2) / (METERING_SPREAD * h)) ** 2) / 2)
    lum = f @ np.array([0.2126, 0.7152, 0.0722], np.float32)
    key = float(np.exp(np.sum(weight * np.log(lum + 1e-4)) / np.sum(weight)))
    exposure = float(rng.uniform(*MIDDLE_GREY)) / key
    bright = float(np.percentile(lum, 99.7)) * exposure
    if bright > HIGHLIGHT_HEADROOM:
        exposure *= HIGHLIGHT_HEADROOM / bright
    f *= exposure
    vignette = float(rng.uniform(0.0, 0.3))
    f *= (1 - vignette * (((xx - w / 2) ** 2 + (yy - h / 2) ** 2) / ((w / 2) ** 2 + (h / 2) ** 2)))[..., None]
    info: dict[str, float | str] = {
        "awb_strength": round(awb, 3),
        "exposure": round(exposure, 4),
        "vignette": round(vignette, 3),
    }
    roll = rng.random()
    if roll < 0.3:
        radius = float(rng.uniform(0.8, 3.0))
        softened = cv2.filter2D(f, -1, disc_kernel(radius))
        info["defocus_px"] = round(radius, 2)
    elif roll < 0.45:
        length, angle = float(rng.uniform(3, 9)), float(rng.uniform(0, 180))
        softened = cv2.filter2D(f, -1, streak_kernel(length, angle))
        info.update(motion_px=round(length, 1), motion_deg=round(angle, 1))
    else:
        sigma = float(rng.uniform(0.3, 0.8))
        softened = cv2.GaussianBlur(f, (0, 0), sigma)
        info["lens_softness"] = round(sigma, 2)
    f = np.asarray(softened, np.float32)  # OpenCV filters float32 into float32: no copy
    # sensor noise: shot noise grows with the signal, read noise does not; some of it in colour
    shot, read = float(rng.uniform(2e-4, 2e-3)), float(rng.uniform(1e-6, 2e-5))
    noise_sigma = np.sqrt(np.clip(f, 0, None) * shot + read)
    f += rng.standard_normal(f.shape, dtype=np.float32) * noise_sigma
    f += cv2.GaussianBlur(rng.standard_normal(f.shape, dtype=np.float32), (0, 0), 1.2) * noise_sigma * 0.8
    curve, contrast = str(rng.choice(["aces", "reinhard"])), float(rng.uniform(0.95, 1.2))
    g = linear_to_srgb(tone_curve(np.clip(f, 0, None), curve, contrast))
    saturation = float(rng.uniform(1.0, 1.25))
    grey = g.mean(axis=2, keepdims=True)
    g = grey + (g - grey) * saturation
    amount = float(rng.uniform(0.2, 0.9))
    g = g + amount * (g - cv2.GaussianBlur(g, (0, 0), 1.2))  # the phone's sharpening
    info.update(
        noise_shot=round(shot, 5),
        noise_read=round(read, 7),
        tone_curve=curve,
        contrast=round(contrast, 3),
        saturation=round(saturation, 3),
        sharpen=round(amount, 3),
    )
    bgr = np.clip(g[..., ::-1] * 255 + 0.5, 0, 255).astype(np.uint8)
    return np.ascontiguousarray(bgr), info


def saved_size(size: tuple[int, int], rng: np.random.Generator) -> tuple[float, tuple[int, int]]:
    """The size the phone saves: the full render, or smaller down to 720p."""
    scale = float(rng.choice(SAVED_SCALES, p=SAVED_SHARES))
    return scale, (round(size[0] * scale), round(size[1] * scale))


def scale_points(px: np.ndarray, scale: float) -> np.ndarray:
    """Pixel coordinates (first pixel's centre at 0) after resizing the photo by `scale`."""
    return (np.asarray(px, float) + 0.5) * scale - 0.5
