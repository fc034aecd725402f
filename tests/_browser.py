"""Headless Chromium for the browser checks (the visual report, the built docs).

The checks skip when no Chromium is installed, unless ``REDZONE_REQUIRE_BROWSER``
is set (CI sets it): then a missing browser is a failure, so the checks can't
pass by not running. The browser is started with a fresh profile and with
everything that would reach the network turned off.
"""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import tempfile
import zlib
from pathlib import Path

import pytest

NAMES = ("chromium", "chromium-browser", "google-chrome", "chrome")

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync",
         "--hide-scrollbars", "--mute-audio")


def chromium() -> str:
    """The browser's path; skips (or fails, under ``REDZONE_REQUIRE_BROWSER``)."""
    for name in NAMES:
        found = shutil.which(name)
        if found:
            return found
    if os.environ.get("REDZONE_REQUIRE_BROWSER"):
        pytest.fail("REDZONE_REQUIRE_BROWSER is set but no Chromium is installed "
                    "(apt-get install chromium)")
    pytest.skip("no Chromium installed (apt-get install chromium); browser checks skipped")


def _run(args: list[str], timeout: int = 90) -> subprocess.CompletedProcess[str]:
    with tempfile.TemporaryDirectory(prefix="rz-chromium-") as profile:
        return subprocess.run([chromium(), *FLAGS, f"--user-data-dir={profile}", *args],
                              capture_output=True, text=True, timeout=timeout)


def dump_dom(url: str, *, budget_ms: int = 5000, flags: tuple[str, ...] = ()) -> str:
    """The DOM after the page's scripts ran (``--dump-dom``).

    :param flags: more of the browser's flags (a colour scheme:
        ``--blink-settings=preferredColorScheme=0`` is dark, ``1`` light).
    """
    done = _run([*flags, f"--virtual-time-budget={budget_ms}", "--dump-dom", url])
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def screenshot(url: str, out: Path, *, width: int = 1280, height: int = 1400,
               budget_ms: int = 5000) -> Path:
    """A PNG of the page."""
    done = _run([f"--virtual-time-budget={budget_ms}", f"--window-size={width},{height}",
                 f"--screenshot={out}", url])
    assert done.returncode == 0 and out.exists(), done.stderr[-2000:]
    return out


def png_pixels(path: Path) -> tuple[int, int, list[bytes]]:
    """Width, height and the rows (RGB or RGBA bytes) of an 8-bit,
    non-interlaced PNG, as Chromium writes them."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    pos, idat = 8, b""
    width = height = channels = 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and color in (2, 6), (depth, color)
            channels = 3 if color == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows: list[bytes] = []
    prev = bytearray(stride)
    i = 0
    for _ in range(height):
        f = raw[i]
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b = prev[x]
            c = prev[x - channels] if x >= channels else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                pred = a if pa <= pb and pa <= pc else b if pb <= pc else c
                line[x] = (line[x] + pred) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, [r if channels == 3 else
                           bytes(v for j, v in enumerate(r) if j % 4 != 3) for r in rows]


def colours(path: Path, step: int = 2) -> dict[tuple[int, int, int], int]:
    """How many (sampled) pixels of each colour a screenshot has."""
    _w, _h, rows = png_pixels(path)
    counts: dict[tuple[int, int, int], int] = {}
    for row in rows[::step]:
        for x in range(0, len(row) - 2, 3 * step):
            key = (row[x], row[x + 1], row[x + 2])
            counts[key] = counts.get(key, 0) + 1
    return counts


def near(counts: dict[tuple[int, int, int], int], rgb: tuple[int, int, int],
         tolerance: int = 24) -> int:
    """Pixels within ``tolerance`` of a colour."""
    return sum(n for c, n in counts.items()
               if all(abs(c[i] - rgb[i]) <= tolerance for i in range(3)))
