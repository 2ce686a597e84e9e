"""What a new user hit in a first hour (issue 30, item 9), each kept fixed: the layout's
y axis as spec.md states it, count --failures on an unsolvable puzzle as the counting
page says, names on a console that cannot show them, and a bad --from-model file."""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from pathlib import Path

from trailkit.models.spec import load_spec_text
from trailkit.solvers.drawing import draw_svg

ROOT = Path(__file__).resolve().parent.parent
SVG = "{http://www.w3.org/2000/svg}"


# ------------------------------------------------------------------ layout: y points up
def test_spec_page_says_y_points_up_and_the_picture_agrees() -> None:
    page = (ROOT / "docs" / "spec.md").read_text(encoding="utf-8")
    assert "y pointing up" in page.split("```", 2)[1]  # the top-of-page summary
    example = re.search(r"`(\{roof: \[1, 2\], floor: \[1, 0\]\})` draws `roof` above "
                        r"`floor`", page)
    assert example, "spec.md's Layout section shows which way y points"
    puzzle = load_spec_text(f"trailkit: 1\nkind: trail\nedges: [roof floor]\n"
                            f"layout: {example.group(1)}\n")
    root = ET.fromstring(draw_svg(puzzle).encode("utf-8"))
    cy = {g.get("data-node"): float(g.find(f"{SVG}circle").get("cy"))
          for g in root.iter() if "node" in (g.get("class") or "").split()}
    assert cy["roof"] < cy["floor"]  # SVG's y points down: roof is drawn higher up
