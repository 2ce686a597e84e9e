"""One self-contained HTML page: the SVG inline, a step control and the list of steps.

No network, no external script, stylesheet or font: the page is one file that works
when opened from disk. The control plays, pauses and steps forward and back through the
walk; the current step's group (``.step[data-step=N]``), its edge
(``.edge[data-edge=E]``, or the domino tile) and its entry in the step list get the class
``current``; later steps are dimmed. Keys: ← → step, space plays or pauses, Home shows
the whole walk again.
"""

from __future__ import annotations

import json
from xml.sax.saxutils import escape

from trailkit.models.answer import Answer, Status
from trailkit.models.puzzle import Puzzle
from trailkit.models.walk_words import walk_size

__all__ = ["html_page", "script_json", "walk_steps"]

#: What JSON text inside ``<script>`` must not hold as itself: ``<`` (``</script>``, and
#: ``<!--`` followed by ``<script``, which makes the parser run on past the block's own
#: end and swallow the page's script), ``>`` and ``&``.
_IN_SCRIPT = {ord("<"): "\\u003c", ord(">"): "\\u003e", ord("&"): "\\u0026"}


def script_json(value: object) -> str:
    """``value`` as JSON text that is safe inside an HTML ``<script>`` element, whatever
    the strings in it say: ``<``, ``>`` and ``&`` written as ``\\u003c``, ``\\u003e``,
    ``\\u0026`` (the same JSON, read back), all else beyond ASCII escaped as well.

    >>> script_json(["<!--<script>", "</script>&"])
    '["\\\\u003c!--\\\\u003cscript\\\\u003e", "\\\\u003c/script\\\\u003e\\\\u0026"]'
    """
    return json.dumps(value, ensure_ascii=True).translate(_IN_SCRIPT)


_STYLE = """
body{font-family:"DejaVu Sans","Liberation Sans",Arial,sans-serif;margin:0;color:#1a1a1a;
background:#fafafa}
main{display:flex;flex-wrap:wrap;gap:16px;padding:16px;align-items:flex-start}
figure{margin:0;flex:1 1 560px;background:#fff;border:1px solid #ddd;border-radius:6px}
figure svg{width:100%;height:auto;display:block}
aside{flex:0 1 300px;min-width:240px}
.controls{display:flex;gap:6px;margin-bottom:8px}
.controls button{font-size:15px;padding:6px 10px;white-space:nowrap;border:1px solid #888;
border-radius:4px;
background:#fff;cursor:pointer}
.controls button:disabled{opacity:.4;cursor:default}
#status{font-weight:bold;margin:6px 0 10px}
ol#steps{margin:0;padding-left:2.6em;max-height:70vh;overflow:auto;font-size:14px}
ol#steps li{padding:2px 4px;border-radius:3px;cursor:pointer}
ol#steps li.current{background:#f0e442;font-weight:bold}
ol#steps li.done{color:#555}
.swatch{display:inline-block;width:.8em;height:.8em;border-radius:2px;margin:0 .3em;
vertical-align:-1px}
svg .step.later{opacity:.12}
svg .step.current .line{stroke:#000;stroke-width:5px}
svg .step.current .casing{stroke:#f0e442;stroke-width:12px}
svg .edge.current{filter:drop-shadow(0 0 2px #000) drop-shadow(0 0 5px #f0e442)}
svg .domino.current rect{fill:#f0e442}
svg .node.current .tyre{stroke:#e69f00;stroke-width:6px}
"""

_SCRIPT = """
(function(){
const steps = JSON.parse(document.getElementById('steps-data').textContent);
const svg = document.querySelector('figure svg');
const items = Array.from(document.querySelectorAll('#steps li'));
const status = document.getElementById('status');
let current = 0, timer = null;
function q(sel){ return Array.from(svg.querySelectorAll(sel)); }
function show(k){
  current = Math.max(0, Math.min(steps.length, k));
  q('.current').forEach(e => e.classList.remove('current'));
  q('.step').forEach(g => {
    const n = Number(g.dataset.step);
    g.classList.toggle('later', current > 0 && n > current);
  });
  items.forEach((li, i) => {
    li.classList.toggle('current', i + 1 === current);
    li.classList.toggle('done', current > 0 && i + 1 < current);
  });
  if (current > 0) {
    const s = steps[current - 1];
    q('.step[data-step="' + current + '"]').forEach(g => g.classList.add('current'));
    q('.edge[data-edge="' + s.edge + '"]').forEach(g => g.classList.add('current'));
    q('.node[data-node="' + CSS.escape(s.to) + '"]').forEach(g => g.classList.add('current'));
    items[current - 1].scrollIntoView({block: 'nearest'});
    status.textContent = 'Step ' + current + ' of ' + steps.length + ': ' + s.from
      + ' \\u2192 ' + s.to + (s.colour ? ' (' + s.colour + ')' : '');
  } else {
    status.textContent = steps.length ? status.dataset.whole : 'No walk to step through';
  }
  document.getElementById('prev').disabled = current === 0;
  document.getElementById('next').disabled = current === steps.length;
  document.getElementById('play').disabled = timer !== null || !steps.length;
  document.getElementById('pause').disabled = timer === null;
  document.body.dataset.step = String(current);
}
function pause(){ if (timer !== null) { clearInterval(timer); timer = null; } show(current); }
function play(){
  if (timer !== null || !steps.length) return;
  if (current === steps.length) current = 0;
  timer = setInterval(() => {
    show(current + 1);
    if (current >= steps.length) pause();  // stop at the last step, not one tick later
  }, Number(document.body.dataset.interval || 700));
  show(current);
}
document.getElementById('prev').onclick = () => { pause(); show(current - 1); };
document.getElementById('next').onclick = () => { pause(); show(current + 1); };
document.getElementById('play').onclick = play;
document.getElementById('pause').onclick = pause;
items.forEach((li, i) => li.onclick = () => { pause(); show(i + 1); });
document.addEventListener('keydown', ev => {
  if (ev.key === 'ArrowRight') { pause(); show(current + 1); }
  else if (ev.key === 'ArrowLeft') { pause(); show(current - 1); }
  else if (ev.key === 'Home') { pause(); show(0); }
  else if (ev.key === ' ') { ev.preventDefault(); timer === null ? play() : pause(); }
});
show(0);
})();
"""


def walk_steps(puzzle: Puzzle, answer: Answer | None) -> list[dict[str, object]]:
    """The steps a page steps through: ``step`` (1-based), ``from``, ``to``, ``edge`` (the
    index that ``.edge[data-edge=E]`` and ``.step[data-edge=E]`` carry in the SVG) and
    ``colour``; none unless ``answer`` is solved."""
    walk = answer.walk if answer is not None and answer.status is Status.SOLVED else None
    return [] if walk is None else [
        {"step": i + 1, "from": puzzle.nodes[walk.nodes[i]],
         "to": puzzle.nodes[walk.nodes[i + 1]], "edge": e,
         "colour": puzzle.colour_name(e)}
        for i, e in enumerate(walk.edges)]


def html_page(puzzle: Puzzle, svg: str, answer: Answer | None = None) -> str:
    """The page for ``svg`` (from :func:`~trailkit.solvers.tools.drawing.draw_svg`), with the
    steps of ``answer``'s walk in the list and the control (none without a walk)."""
    steps = walk_steps(puzzle, answer)
    items = _step_items(puzzle, steps)
    title = escape(puzzle.name or "trailkit drawing")
    whole = (f"The whole {'chain' if puzzle.kind == 'domino-chain' else 'walk'}: "
             f"{walk_size(puzzle, len(steps))}")
    inline = svg.split("?>", 1)[1].lstrip() if svg.startswith("<?xml") else svg
    data = script_json(steps)
    return f"""<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title}</title>
<style>{_STYLE}</style>
</head>
<body>
<main>
<figure>{inline}</figure>
<aside>
<div class="controls">
<button id="prev" type="button" title="step back (←)">◀ Back</button>
<button id="play" type="button" title="play (space)">▶ Play</button>
<button id="pause" type="button" title="pause (space)">Pause</button>
<button id="next" type="button" title="step forward (→)">Next ▶</button>
</div>
<div id="status" role="status" data-whole="{escape(whole)}"></div>
<ol id="steps">{"".join(items)}</ol>
</aside>
</main>
<script type="application/json" id="steps-data">{data}</script>
<script>{_SCRIPT}</script>
</body>
</html>
"""


def _step_items(puzzle: Puzzle, steps: list[dict[str, object]]) -> list[str]:
    """The step list's items, one ``<li>`` a step: from → to, and the plank's colour
    (a swatch in its palette paint and its name) where it has one."""
    from trailkit.models.palette import palette

    paint = palette(list(puzzle.colour_names))
    items = []
    for s in steps:
        colour = s["colour"]
        swatch = (f'<span class="swatch" style="background:{paint[str(colour)].hex}"></span>'
                  f"{escape(str(colour))}" if colour else "")
        items.append(f'<li data-step="{s["step"]}">{escape(str(s["from"]))} → '
                     f'{escape(str(s["to"]))}{swatch}</li>')
    return items
