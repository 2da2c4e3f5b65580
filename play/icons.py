"""The site's app icons (the web app manifest's, docs/web.md "Installing on a phone"): the favicon's white spade on
the felt green, as PNG files, drawn here in pure Python (zlib and struct: no imaging library) so that they are
reproducible byte for byte. `python -m play.icons` writes them to play/static/play/icons/; tests/play/
test_manifest.py checks that the committed files are what this draws.

- `icon-192.png`, `icon-512.png`: purpose "any", a rounded square;
- `maskable-512.png`: purpose "maskable", full bleed, the spade inside the central 80 % safe zone;
- `apple-touch-icon.png` (180 px): iOS's home-screen icon, full bleed (iOS rounds the corners itself).
"""

from __future__ import annotations

import struct
import sys
import zlib
from collections.abc import Callable
from pathlib import Path

FELT = (0x0F, 0x51, 0x32)
WHITE = (0xFF, 0xFF, 0xFF)
OUT = Path(__file__).resolve().parent / "static" / "play" / "icons"
SAMPLES = 3  # per axis: 9 samples a pixel for smooth edges


def _in_spade(x: float, y: float) -> bool:
    """The spade in the unit square (y down): two lobes, the point above them, a flared stem."""
    for cx in (0.36, 0.64):
        if (x - cx) ** 2 + (y - 0.56) ** 2 <= 0.165**2:
            return True
    # the upper body: a triangle from the tip (0.5, 0.16) down to the lobes' widest line
    if 0.16 <= y <= 0.58:
        half = (y - 0.16) / (0.58 - 0.16) * 0.31
        if abs(x - 0.5) <= half:
            return True
    # the stem: narrow under the lobes, flared at the foot
    if 0.58 <= y <= 0.86:
        half = 0.035 + (y - 0.58) / (0.86 - 0.58) * 0.11
        if abs(x - 0.5) <= half:
            return True
    return False


def _in_rounded_square(x: float, y: float, radius: float) -> bool:
    cx = min(max(x, radius), 1 - radius)
    cy = min(max(y, radius), 1 - radius)
    return (x - cx) ** 2 + (y - cy) ** 2 <= radius**2


def draw(size: int, *, maskable: bool = False, rounded: bool = True) -> bytes:
    """The icon as RGBA rows; `maskable` shrinks the spade into the safe zone; `rounded` cuts the corners."""
    scale = 0.62 if maskable else 0.8  # the spade's box, as a share of the icon
    offset = (1 - scale) / 2
    inside: Callable[[float, float], bool] = _in_spade
    rows = bytearray()
    n = SAMPLES * SAMPLES
    for py in range(size):
        rows.append(0)  # PNG filter: none
        for px in range(size):
            ground = spade = 0
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    x = (px + (sx + 0.5) / SAMPLES) / size
                    y = (py + (sy + 0.5) / SAMPLES) / size
                    if rounded and not _in_rounded_square(x, y, 0.19):
                        continue
                    ground += 1
                    if inside((x - offset) / scale, (y - offset) / scale):
                        spade += 1
            alpha = round(255 * ground / n)
            if ground:
                share = spade / ground
                rgb = tuple(round(f + (w - f) * share) for f, w in zip(FELT, WHITE, strict=True))
            else:
                rgb = FELT
            rows.extend((*rgb, alpha))
    return bytes(rows)


def png(size: int, rgba: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return (
            struct.pack(">I", len(data))
            + kind
            + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
        )

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rgba, 9))
        + chunk(b"IEND", b"")
    )


# name -> (size, maskable, rounded)
ICONS: dict[str, tuple[int, bool, bool]] = {
    "icon-192.png": (192, False, True),
    "icon-512.png": (512, False, True),
    "maskable-512.png": (512, True, False),
    "apple-touch-icon.png": (180, False, False),
}


def render(name: str) -> bytes:
    size, maskable, rounded = ICONS[name]
    return png(size, draw(size, maskable=maskable, rounded=rounded))


def main(out: Path = OUT) -> None:
    out.mkdir(parents=True, exist_ok=True)
    for name in ICONS:
        (out / name).write_bytes(render(name))
        print(out / name)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else OUT)
