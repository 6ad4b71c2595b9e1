#!/usr/bin/env python3
"""Download the pure-Python wheels the Pyodide test runner puts on sys.path.

    python tests/pyodide/fetch_wheels.py

pytest and hypothesis with every dependency they need on Python 3.14 (the
Python of Pyodide 314), pinned exactly, into tests/pyodide/.wheels/ (not
committed). Uses pip from the registry; does nothing if all are present.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
WHEELS = HERE / ".wheels"

# pytest 9.0.3 needs iniconfig, packaging, pluggy and pygments (exceptiongroup/tomli only
# before 3.11, colorama only on Windows); hypothesis 6.155.2 needs only sortedcontainers
# (attrs is no longer a dependency).
PINS = (
    "pytest==9.0.3",
    "pluggy==1.7.0",
    "iniconfig==2.3.1",
    "packaging==26.3",
    "pygments==2.21.0",
    "hypothesis==6.155.2",
    "sortedcontainers==2.4.0",
)


def wheel_present(pin: str) -> bool:
    name, version = pin.split("==")
    stem = name.replace("-", "_").lower()
    return any(p.name.lower().startswith(f"{stem}-{version}-") for p in WHEELS.glob("*.whl"))


def main() -> int:
    missing = [pin for pin in PINS if not wheel_present(pin)]
    if not missing:
        print(f"fetch_wheels: all {len(PINS)} wheels present in {WHEELS}")
        return 0
    WHEELS.mkdir(exist_ok=True)
    command = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--quiet",
        "--disable-pip-version-check",
        "--only-binary=:all:",
        "--no-deps",
        "--python-version",
        "3.14",
        "--implementation",
        "py",
        "--platform",
        "any",
        "--abi",
        "none",
        "-d",
        str(WHEELS),
        *missing,
    ]
    result = subprocess.run(command)
    if result.returncode != 0:
        print("fetch_wheels: pip download failed", file=sys.stderr)
        return result.returncode
    still = [pin for pin in PINS if not wheel_present(pin)]
    if still:
        print(f"fetch_wheels: not downloaded: {', '.join(still)}", file=sys.stderr)
        return 1
    print(f"fetch_wheels: {len(missing)} wheels downloaded to {WHEELS}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
