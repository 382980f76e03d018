"""Text that reads (issue 34), read back as pixels: a long title stays inside its cell (web/text-fit.js
shrinks it, puts it on two lines or cuts it, and never narrows it more than 10 %), at 1280×720 and on a
390×844 phone, where every text of a board the server lays out is at least 14 CSS pixels tall."""

from __future__ import annotations

import json

import pytest

BOARD = "ci"
LONG = "Integration tests on staging cluster"
# The font stack and weight web/draw.js draws titles in.
TITLE_FONT = '600 %spx ui-rounded, "SF Pro Rounded", system-ui, sans-serif'


def rgb(hex_colour: str) -> tuple[int, int, int]:
    return tuple(int(hex_colour[i:i + 2], 16) for i in (1, 3, 5))


def make_board(server) -> None:
    status, answer = server.request("PUT", f"/api/v1/boards/{BOARD}", {"rings": [
        {"id": "build", "title": "Build"},
        {"id": "tests", "title": LONG},
        {"id": "deploy", "title": "Deploy"},
        {"id": "runs", "kind": "counter", "title": "Runs", "value": 1234},
        {"id": "status", "kind": "text", "title": "Status", "text": "Deploying"},
    ]})
    assert status in (200, 201), f"PUT /api/v1/boards/{BOARD} answered {status}: {answer}"
    status, answer = server.request(
        "PUT", f"/api/v1/boards/{BOARD}/rings/tests", {"value": 1234, "max": 5678, "label": "fraction"})
    assert status == 200, f"PUT the tests ring answered {status}: {answer}"
    server.push({"build": 0.5, "deploy": 0.2}, "none", board=BOARD)


def ink(dashboard, layout: dict, box: tuple[float, float, float, float], background) -> dict:
    """Where a logical box (left, top, width, height) of the board's canvas differs clearly from the
    background: for each device-pixel row inked, its row and its leftmost and rightmost inked columns,
    in device pixels from the box's corner; and the device pixels per CSS pixel and per unit."""
    return dashboard.page.evaluate("""
    (() => {
      const canvas = document.getElementById('rings');
      const perUnit = canvas.width / %(width)s;
      const [x, y, w, h] = %(box)s.map((v) => v * perUnit);
      const left = Math.max(0, Math.floor(x)), top = Math.max(0, Math.floor(y));
      const width = Math.min(canvas.width - left, Math.ceil(w)), height = Math.min(canvas.height - top, Math.ceil(h));
      const copy = new OffscreenCanvas(canvas.width, canvas.height);
      const ctx = copy.getContext('2d', {willReadFrequently: true});
      ctx.drawImage(canvas, 0, 0);
      const data = ctx.getImageData(left, top, width, height).data;
      const bg = %(background)s;
      const rows = [];
      for (let row = 0; row < height; row += 1) {
        let first = -1, last = -1;
        for (let col = 0; col < width; col += 1) {
          const i = (row * width + col) * 4;
          if (Math.max(Math.abs(data[i] - bg[0]), Math.abs(data[i + 1] - bg[1]), Math.abs(data[i + 2] - bg[2])) > 60) {
            if (first < 0) first = col;
            last = col;
          }
        }
        if (first >= 0) rows.push([row, first, last]);
      }
      return {rows, left, top, width, height, perUnit,
              perCss: canvas.width / canvas.getBoundingClientRect().width};
    })()
    """ % {"width": layout["width"], "box": json.dumps(list(box)), "background": json.dumps(list(background))})


def lines_of(rows: list) -> list[tuple[int, int]]:
    """The inked rows grouped into lines of text (runs of rows with at most a 1-row gap): (top, bottom)."""
    lines: list[list[int]] = []
    for row, _, _ in rows:
        if lines and row - lines[-1][1] <= 2:
            lines[-1][1] = row
        else:
            lines.append([row, row])
    return [(a, b) for a, b in lines]


def reference_height(dashboard, text: str, css_pixels: float, per_css: float) -> int:
    """The inked height, in device pixels, of `text` in the title font at `css_pixels` CSS pixels."""
    return dashboard.page.evaluate("""
    (() => {
      const size = %(size)s;
      const c = new OffscreenCanvas(Math.ceil(size * 40), Math.ceil(size * 4));
      const ctx = c.getContext('2d', {willReadFrequently: true});
      ctx.fillStyle = '#000'; ctx.fillRect(0, 0, c.width, c.height);
      ctx.font = %(font)s; ctx.textBaseline = 'middle'; ctx.fillStyle = '#fff';
      ctx.fillText(%(text)s, 4, c.height / 2);
      const data = ctx.getImageData(0, 0, c.width, c.height).data;
      let top = -1, bottom = -1;
      for (let row = 0; row < c.height; row += 1) {
        for (let col = 0; col < c.width; col += 1) {
          if (data[(row * c.width + col) * 4] > 60) { if (top < 0) top = row; bottom = row; break; }
        }
      }
      return bottom - top + 1;
    })()
    """ % {"size": css_pixels * per_css, "font": json.dumps(TITLE_FONT % (css_pixels * per_css)), "text": json.dumps(text)})


@pytest.mark.parametrize("window", [(1280, 720, "landscape"), (390, 844, "portrait")], ids=lambda w: w[2])
def test_a_long_title_stays_in_its_cell_and_text_reads(server, open_page, window):
    width, height, arrangement = window
    make_board(server)
    dashboard = open_page(width, height).open(server, f"?board={BOARD}")
    dashboard.wait_announced("tests", f"{LONG} 1,234/5,678")
    dashboard.page.wait_for(f"document.body.dataset.arrangement === {arrangement!r}", 5, f"the {arrangement} arrangement")
    last = dashboard.last_seq()
    dashboard.page.wait_for(f"Number(document.body.dataset.seq) >= {last}", 5, f"seq {last} drawn")
    layout = dashboard.layout()
    background = rgb(layout["background"])
    rings = {ring["id"]: ring for ring in layout["rings"]}
    css_per_unit = dashboard.canvas_size()["rect"]["width"] / layout["width"]

    # Every text of the board is at least 14 CSS pixels, counter and text values at least their titles.
    for ring in layout["rings"]:
        for spot in ("titleText", "labelText"):
            assert ring[spot]["size"] * css_per_unit >= 14 - 1e-6, (ring["id"], spot, ring[spot]["size"] * css_per_unit)
    for widget in ("runs", "status"):
        assert rings[widget]["labelText"]["size"] >= rings[widget]["titleText"]["size"], rings[widget]

    # The long title: inked only inside its spot's width (a device pixel of anti-aliasing aside), looked for
    # half a gap beyond it on both sides and over two lines' height.
    spot = rings["tests"]["titleText"]
    margin = spot["size"] / 2
    box = (spot["x"] - spot["width"] / 2 - margin, spot["y"] - 1.1 * spot["size"], spot["width"] + 2 * margin, 2.2 * spot["size"])
    found = ink(dashboard, layout, box, background)
    assert found["rows"], "the long title is drawn"
    per_unit = found["perUnit"]
    inside = (margin * per_unit - 1, (margin + spot["width"]) * per_unit + 1)
    strays = [row for row in found["rows"] if row[1] < inside[0] or row[2] > inside[1]]
    assert not strays, f"the title runs outside its spot's {spot['width']} units: rows {strays[:3]}, inside {inside}"

    # Its first line is at least as tall as the same letters at 14 CSS pixels (a pixel of rounding aside).
    first_top, first_bottom = lines_of(found["rows"])[0]
    drawn = first_bottom - first_top + 1
    reference = reference_height(dashboard, "Integration", 14, found["perCss"])
    assert drawn >= reference - 1, f"the title's first line is {drawn} device pixels tall, 14 CSS pixels is {reference}"

    # The fraction label stays inside its spot too.
    label = rings["tests"]["labelText"]
    box = (label["x"] - label["width"] / 2 - 1, label["y"] - 1.1 * label["size"], label["width"] + 2, 2.2 * label["size"])
    found = ink(dashboard, layout, box, background)
    assert found["rows"], "the label is drawn"
    inside = (1 * per_unit - 1, (1 + label["width"]) * per_unit + 1)
    # The ring's stroke may fall in the box: only the label's own rows (near its middle) are checked.
    middle = (1.1 * label["size"] * per_unit)
    near = [row for row in found["rows"] if abs(row[0] - middle) < 0.3 * label["size"] * per_unit]
    assert near and all(inside[0] <= first and last <= inside[1] for _, first, last in near), (near[:3], inside)
    assert dashboard.page.problems() == []
