"""The SVG's arc at 1× shows no seams where its segments meet (issue 34, docs/SVG.md): Chromium draws
GET /api/v1/boards/main.svg at its own size and the arc is read along its middle, where a seam would
let the track show through as a dip between two segments of nearly the same colour."""

from __future__ import annotations

import json
import math


def test_svg_arc_at_one_x_has_no_seams(server, open_page):
    server.push({"move": 0.9, "exercise": 0.7, "stand": 0.5}, "none")
    dashboard = open_page(1280, 800).open(server)
    dashboard.wait_announced("move", "Move 90%")
    layout = dashboard.layout()
    assert layout["arrangement"] == "landscape", "the SVG's own arrangement is compared"
    worst = []
    for ring_id, p in (("move", 0.9), ("exercise", 0.7), ("stand", 0.5)):
        ring = next(r for r in layout["rings"] if r["id"] == ring_id)
        # Along the arc's middle and a quarter of its thickness in and out, every 0.05° from just past the
        # start cap to short of the tip: 12 o'clock is -90°, the arc runs clockwise.
        points = []
        for radius in (ring["r"] - ring["thickness"] / 4, ring["r"], ring["r"] + ring["thickness"] / 4):
            for step in range(int(p * 360 / 0.05)):
                degrees = -90 + 10 + step * 0.05
                if degrees > -90 + p * 360 - 10:
                    break
                angle = math.radians(degrees)
                points.append((ring["cx"] + radius * math.cos(angle), ring["cy"] + radius * math.sin(angle)))
        pixels = dashboard.page.evaluate("""
        (async () => {
          const image = new Image();
          image.src = '/api/v1/boards/main.svg?at=end';
          await image.decode();
          const canvas = new OffscreenCanvas(image.naturalWidth, image.naturalHeight);
          const ctx = canvas.getContext('2d', {willReadFrequently: true});
          ctx.drawImage(image, 0, 0);
          const data = ctx.getImageData(0, 0, canvas.width, canvas.height).data;
          return %s.map(([x, y]) => { const i = (Math.floor(y) * canvas.width + Math.floor(x)) * 4;
                                      return [data[i], data[i + 1], data[i + 2]]; });
        })()
        """ % json.dumps(points))
        # Per radius, distinct pixels in order (neighbouring points often fall in one pixel); a seam is a pixel
        # off the middle of its two neighbours by more than the gradient changes over three pixels.
        per_radius = len(pixels) // 3
        for start in range(0, 3 * per_radius, per_radius):
            seen = []
            for pixel in pixels[start:start + per_radius]:
                if not seen or seen[-1] != pixel:
                    seen.append(pixel)
            for a, b, c in zip(seen, seen[1:], seen[2:]):
                off = max(abs(2 * y - x - z) / 2 for x, y, z in zip(a, b, c))
                worst.append((off, ring_id, a, b, c))
    worst.sort(reverse=True)
    assert worst and worst[0][0] <= 8, f"seams: the pixels most off their neighbours {worst[:3]}"
    assert dashboard.page.problems() == []
