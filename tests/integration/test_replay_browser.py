"""The deal viewer in a real browser (``make integration-replay``): ``hearts-env replay`` writes a
page for a Hearts deal with passing, an auction and a Smear deal; headless Chromium renders each,
script included, and its screenshot must not be blank (more than a few colours, not all white).

The Makefile's target installs Chromium from the distribution's packages when it is missing and
``apt-get`` can; without a browser the test skips, saying why. Outside that target (``make test``)
it skips: the page's structure is tested by tests/test_replay.py.
"""

from __future__ import annotations

import os
import shutil
import struct
import subprocess
import zlib
from pathlib import Path

import numpy as np
import pytest

from hearts_cli import main

if os.environ.get("HEARTS_ENV_INTEGRATION") != "replay":
    pytest.skip("the browser check runs under make integration-replay", allow_module_level=True)

BROWSER = next(
    (shutil.which(name) for name in ("chromium", "chromium-browser", "google-chrome") if shutil.which(name)),
    None,
)
if BROWSER is None:
    pytest.skip(
        "no Chromium here (make integration-replay installs it with apt-get where it can)",
        allow_module_level=True,
    )


def png_pixels(path: Path) -> np.ndarray:
    """(H, W, C) uint8 pixels of an 8-bit RGB or RGBA PNG, not interlaced (what Chromium writes)."""
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    chunks, at = {}, 8
    while at < len(data):
        size, kind = struct.unpack(">I4s", data[at : at + 8])
        chunks.setdefault(kind, []).append(data[at + 8 : at + 8 + size])
        at += 12 + size
    width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", chunks[b"IHDR"][0])
    assert depth == 8 and color in (2, 6) and not interlace, (depth, color, interlace)
    bpp = 3 if color == 2 else 4
    raw = np.frombuffer(zlib.decompress(b"".join(chunks[b"IDAT"])), np.uint8).reshape(height, 1 + width * bpp)
    out = np.zeros((height, width * bpp), np.int64)
    previous = np.zeros(width * bpp, np.int64)
    for y in range(height):
        kind, row = raw[y, 0], raw[y, 1:].astype(np.int64)
        if kind == 1:  # Sub: a running sum of each channel along the row
            row = np.cumsum(row.reshape(width, bpp), axis=0).ravel() % 256
        elif kind == 2:  # Up
            row = (row + previous) % 256
        elif kind in (3, 4):  # Average, Paeth: byte by byte
            for x in range(len(row)):
                left = row[x - bpp] if x >= bpp else 0
                up, corner = previous[x], previous[x - bpp] if x >= bpp else 0
                if kind == 3:
                    row[x] = (row[x] + (left + up) // 2) % 256
                else:
                    p = left + up - corner
                    guess = min((abs(p - left), 0, left), (abs(p - up), 1, up), (abs(p - corner), 2, corner))[
                        2
                    ]
                    row[x] = (row[x] + guess) % 256
        out[y], previous = row, row
    return out.reshape(height, width, bpp).astype(np.uint8)


@pytest.mark.parametrize(
    ("preset", "agents"),
    [
        ("hearts", "strategy,random"),
        ("auction_hearts", "strategy,lowest"),
        ("smear_partnership", "smear,lowest"),
    ],
)
def test_page_renders_in_chromium(preset: str, agents: str, tmp_path: Path) -> None:
    page = tmp_path / f"{preset}.html"
    assert main(["replay", "--preset", preset, "--agents", agents, "--seed", "3", "--out", str(page)]) == 0
    shot = tmp_path / f"{preset}.png"
    subprocess.run(
        [BROWSER, "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--window-size=900,700",
         f"--screenshot={shot}", f"{page.as_uri()}#20"],
        capture_output=True, timeout=120, check=True,
    )  # fmt: skip
    pixels = png_pixels(shot)[:, :, :3]
    assert pixels.shape[:2] == (700, 900)
    colours = np.unique(pixels.reshape(-1, 3), axis=0)
    assert len(colours) > 20, f"{shot}: {len(colours)} colours, a blank page?"
    assert (pixels < 128).any(axis=2).mean() > 0.01, f"{shot}: hardly any dark pixel (no text drawn?)"
    # The script ran: it draws the seat boxes, the acting seat's framed in blue (#2a6fdb).
    blue = (np.abs(pixels.astype(int) - [42, 111, 219]).max(axis=2) < 12).sum()
    assert blue > 200, f"{shot}: {blue} pixels of the acting seat's frame: the page's script did not run?"
