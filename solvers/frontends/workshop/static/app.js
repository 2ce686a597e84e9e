// The workshop page: the editor, the located problems, the live picture, runs, and
// editing on the picture. Every change of the text (typed, made on the picture, or a
// repair applied) goes through the editor, so it is one step of its undo history.
(function () {
"use strict";
const E = window.TrailkitEditor;
const $ = id => document.getElementById(id);
const nonce = document.querySelector('meta[name="csp-nonce"]').content;
const slot = "page-" + Math.random().toString(36).slice(2);
// a design runs in a slot of its own: an edit cancels it only when it designs on the
// spec being edited (a new field's candidates do not depend on the text)
const designSlot = slot + "-design";
const state = {
  info: null, name: null, view: null, puzzle: null, puzzleOf: undefined, seq: 0, shown: 0,
  pending: null, inFlight: false, timer: null, steps: [], step: 0,
  picked: null, answerFor: null, answerShown: false, changeAt: null, latencyMs: null, savedText: null, running: 0,
  version: null, stepsText: "", conflict: null, preview: false, designing: null,
  design: {candidates: [], at: 0},
};
window.workshop = state;  // for tests and the curious: the page's state

async function api(path, body) {
  const opts = body === undefined ? {} : {
    method: "POST", headers: {"content-type": "application/json"}, body: JSON.stringify(body)};
  const res = await fetch(path, opts);
  let data;
  try { data = await res.json(); } catch (e) { data = {error: res.status + " " + res.statusText}; }
  if (!res.ok) {
    const err = new Error(data.error || res.statusText);
    err.status = res.status;
    err.data = data;
    throw err;
  }
  return data;
}

// ------------------------------------------------------------ text and analysis
function text() { return E.text(state.view); }

function changed() {
  if (state.changeAt === null) state.changeAt = performance.now();
  // a newer edit makes any run's answer moot: cancel it, and redraw soon
  if (state.running) api("/api/cancel", {slot}).catch(() => {});
  if (state.designing === "spec") api("/api/cancel", {slot: designSlot}).catch(() => {});
  clearTimeout(state.timer);
  state.timer = setTimeout(() => { state.timer = null; analyseNow(); }, 30);
  fileStatus();
}

function analyseNow() {
  const body = {text: text(), name: state.name, seq: ++state.seq, slot};
  if (state.inFlight) { state.pending = body; return; }
  send(body);
}

async function send(body) {
  state.inFlight = true;
  try {
    const out = await api("/api/analyse", body);
    if (out.cancelled) return;  // a newer one replaced it
    if (body.seq >= state.shown) { state.shown = body.seq; show(out, body.text); }
  } catch (e) {
    showProblems([{line: 1, column: 1, level: "error", message: String(e.message)}]);
  } finally {
    state.inFlight = false;
    if (state.pending) { const next = state.pending; state.pending = null; send(next); }
  }
}

function show(out, forText) {
  showProblems(out.problems);
  if (out.svg) {
    if (state.puzzleOf === state.name) boardChanged(state.puzzle, out.puzzle);
    state.puzzle = out.puzzle;
    state.puzzleOf = state.name;
    if (!(state.answerShown && state.answerFor === forText)) {
      drawSvg(out.svg);
      state.answerShown = false;
      answerStale();
    }
    colours();
    claimChoices();
  }
  $("picture").classList.toggle("stale", !out.svg);
  if (state.changeAt !== null) {  // from the first keystroke to what it shows now
    state.latencyMs = performance.now() - state.changeAt;
    state.changeAt = null;
  }
  document.body.dataset.analysed = String(state.shown);
  document.body.dataset.serverMs = String(out.time_ms);
}

function showProblems(problems) {
  E.showProblems(state.view, problems);
  const list = $("problems");
  list.replaceChildren();
  for (const p of problems) {
    const li = document.createElement("li");
    li.className = p.level;
    li.textContent = (p.line ? `line ${p.line}, column ${p.column}: ` : "") + p.message;
    li.dataset.line = p.line || "";
    li.dataset.column = p.column || "";
    li.dataset.tokenColumn = p.token_column || "";
    li.onclick = () => p.line && E.goToProblem(state.view, p);
    list.appendChild(li);
  }
  if (!problems.length) {
    const li = document.createElement("li");
    li.className = "ok";
    li.textContent = "no problems: the spec loads";
    list.appendChild(li);
  }
  const errors = problems.filter(p => p.level === "error").length;
  $("problems-title").textContent = errors ? `Problems (${errors})` : "Problems";
}

// --------------------------------------------------------------------- picture
// A preview (a designed candidate, not the spec in the editor) is not edited on the
// picture: its nodes and planks are not the editor's.
function drawSvg(svgText, preview = false) {
  const doc = new DOMParser().parseFromString(svgText, "image/svg+xml");
  const svg = doc.documentElement;
  if (svg.nodeName !== "svg") return;
  for (const s of svg.querySelectorAll("script")) s.remove();
  const box = $("drawing");
  box.replaceChildren(document.importNode(svg, true));
  state.preview = preview;
  $("picture").classList.toggle("preview", preview);
  $("picture").classList.remove("readable");
  document.body.dataset.picture = "fit";
  $("inspect-side").hidden = true;
  wirePicture();
}

function svgEl() { return $("drawing").querySelector("svg"); }

function svgPoint(ev) {
  const svg = svgEl();
  const pt = svg.createSVGPoint();
  pt.x = ev.clientX; pt.y = ev.clientY;
  return pt.matrixTransform(svg.getScreenCTM().inverse());
}

// the map from the spec's layout units to the picture's pixels, fitted on the nodes
function fit() {
  const pts = [];
  for (const n of (state.puzzle && state.puzzle.nodes) || []) {
    const c = svgEl().querySelector(`.node[data-node="${CSS.escape(n.name)}"] circle.tyre`);
    if (c) pts.push({x: n.x, y: n.y, px: +c.getAttribute("cx"), py: +c.getAttribute("cy")});
  }
  const axis = (k, pk) => {
    let lo = pts[0], hi = pts[0];
    for (const p of pts) { if (p[k] < lo[k]) lo = p; if (p[k] > hi[k]) hi = p; }
    if (!lo || hi[k] - lo[k] < 1e-9) return null;
    const a = (hi[pk] - lo[pk]) / (hi[k] - lo[k]);
    return {a, b: lo[pk] - a * lo[k]};
  };
  let fx = axis("x", "px"), fy = axis("y", "py");
  if (!fx && fy) fx = {a: -fy.a, b: pts[0].px + fy.a * pts[0].x};
  if (!fy && fx) fy = {a: -fx.a, b: pts[0].py + fx.a * pts[0].y};
  if (!fx) { fx = {a: 100, b: pts.length ? pts[0].px - 100 * pts[0].x : 0}; }
  if (!fy) { fy = {a: -100, b: pts.length ? pts[0].py + 100 * pts[0].y : 0}; }
  return {toLayout: (px, py) => [(px - fx.b) / fx.a, (py - fy.b) / fy.a]};
}

// Every plank answers a click anywhere within its drawn width, not only on its painted
// dots or dashes: under each stroke of an edge goes a copy without dashes, transparent,
// that takes the clicks (pointer-events: stroke), at least 12 units wide.
function hitAreas(svg) {
  for (const g of svg.querySelectorAll(".edge")) {
    for (const stroke of g.querySelectorAll("path, line, polyline")) {
      if (stroke.classList.contains("hit")) continue;
      const hit = stroke.cloneNode(false);
      const width = parseFloat(stroke.getAttribute("stroke-width")) || 0;
      hit.removeAttribute("stroke-dasharray");
      hit.removeAttribute("marker-end");
      hit.removeAttribute("marker-start");
      hit.setAttribute("class", "hit");
      hit.setAttribute("stroke", "transparent");
      hit.setAttribute("fill", "none");
      hit.setAttribute("stroke-linecap", "butt");
      hit.setAttribute("stroke-width", String(Math.max(width, 12)));
      hit.setAttribute("pointer-events", "stroke");
      g.insertBefore(hit, g.firstChild);
    }
  }
}

function wirePicture() {
  const svg = svgEl();
  const board = !!(svg && !state.preview && svg.querySelector("g.board"));
  $("board-tools").hidden = !board;
  $("graph-hint").hidden = board;  // a board's cells are clicked, not its moves
  if (!svg) return;
  if (board) for (const g of svg.querySelectorAll("g.cell")) g.addEventListener("click", cellClick);
  hitAreas(svg);
  for (const g of svg.querySelectorAll(".node")) g.addEventListener("pointerdown", nodeDown);
  for (const g of svg.querySelectorAll(".edge")) g.addEventListener("click", edgeClick);
  if (state.picked) {
    const g = svg.querySelector(`.node[data-node="${CSS.escape(state.picked)}"]`);
    if (g) g.classList.add("picked"); else state.picked = null;
  }
}

function nodeDown(ev) {
  if (ev.button !== 0 || state.preview) return;
  ev.preventDefault();
  const g = ev.currentTarget, name = g.dataset.node;
  const start = svgPoint(ev);
  let moved = false, last = start;
  g.setPointerCapture(ev.pointerId);
  const move = e => {
    last = svgPoint(e);
    if (!moved && Math.hypot(last.x - start.x, last.y - start.y) > 4) {
      moved = true; g.classList.add("dragging");
    }
    if (moved) g.setAttribute("transform", `translate(${last.x - start.x},${last.y - start.y})`);
  };
  const up = () => {
    g.removeEventListener("pointermove", move);
    g.removeEventListener("pointerup", up);
    g.classList.remove("dragging");
    if (moved) dropNode(name, g, last.x - start.x, last.y - start.y);
    else pickNode(name, g);
  };
  g.addEventListener("pointermove", move);
  g.addEventListener("pointerup", up);
}

function dropNode(name, g, dx, dy) {
  const c = g.querySelector("circle.tyre");
  const [x, y] = fit().toLayout(+c.getAttribute("cx") + dx, +c.getAttribute("cy") + dy);
  const positions = {};
  for (const n of state.puzzle.nodes) positions[n.name] = [n.x, n.y];
  edit({kind: "move", node: name, x: round(x), y: round(y), positions});
}

function round(v) { return Math.round(v * 100) / 100; }

function pickNode(name, g) {
  if (!state.picked) { state.picked = name; g.classList.add("picked"); return; }
  const first = state.picked;
  state.picked = null;
  for (const n of svgEl().querySelectorAll(".node.picked")) n.classList.remove("picked");
  if (first === name) return;
  const colour = state.puzzle && state.puzzle.colours.length ? $("colour").value : null;
  edit({kind: "add", u: first, v: name, colour});
}

function edgeClick(ev) {
  if (state.preview) return;
  const e = +ev.currentTarget.dataset.edge;
  const info = state.puzzle && state.puzzle.edges[e];
  if (!info) return;
  const menu = $("edge-menu");
  menu.dataset.edge = String(e);
  $("edge-menu-title").textContent = `${info.u} ${info.directed ? "→" : "–"} ${info.v}` +
    (info.colour ? ` (${info.colour})` : "");
  const box = $("edge-colours");
  box.replaceChildren();
  for (const c of state.puzzle.colours) {
    const b = document.createElement("button");
    b.type = "button";
    b.dataset.colour = c;
    const sw = document.createElement("span");
    sw.className = "swatch";
    sw.style.background = (state.puzzle.paint || {})[c] || "#999";
    b.append(sw, document.createTextNode(c));
    b.disabled = c === info.colour;
    b.onclick = () => { hideMenu(); edit({kind: "recolour", edge: e, colour: c}); };
    box.appendChild(b);
  }
  menu.hidden = false;
  menu.style.left = Math.min(ev.clientX + 8, window.innerWidth - 200) + "px";
  menu.style.top = Math.min(ev.clientY + 8, window.innerHeight - 160) + "px";
}

function hideMenu() { $("edge-menu").hidden = true; }

// --------------------------------------------------------------------- board
// A click on a board's cell: with "given", sets its given (the number in the field, or
// the lowest one no cell holds) or clears the one it has; with "hole", makes the cell a
// hole or brings it back. Each is an edit of the text like any other (one undo step).
function cellClick(ev) {
  if (state.preview || !state.puzzle) return;
  const name = ev.currentTarget.dataset.node;
  const at = state.puzzle.at || {}, holes = state.puzzle.avoid || [];
  if ($("cell-mode").value === "hole") {
    edit({kind: "hole", node: name, hole: !holes.includes(name)});
    return;
  }
  if (name in at) {
    edit({kind: "given", node: name, position: null});
    return;
  }
  const typed = parseInt($("given-number").value, 10);
  const position = typed >= 1 ? typed : nextFree(at);
  $("given-number").value = "";
  edit({kind: "given", node: name, position});
}

// The status line beside the board tools says what the last change did to the board,
// read from the board drawn before it and the one drawn now: an edit, an undo and a
// redo all say what the cells show (never what a click meant to do, which a spec that
// does not load leaves undrawn).
function boardChanged(before, after) {
  if (!before || !after) return;
  const was = before.at || {}, now = after.at || {};
  const holesWas = new Set(before.avoid || []), holesNow = new Set(after.avoid || []);
  const said = [];
  for (const name of Object.keys(was)) {
    if (!(name in now)) said.push(`${name}: its given ${was[name]} cleared`);
  }
  for (const name of Object.keys(now)) {
    if (was[name] !== now[name]) said.push(`${name}: given ${now[name]}`);
  }
  for (const name of holesNow) if (!holesWas.has(name)) said.push(`${name} is now a hole`);
  for (const name of holesWas) if (!holesNow.has(name)) said.push(`${name} is a cell again`);
  if (said.length) boardSays(said.join("; "));
}

function nextFree(at) {
  const taken = new Set(Object.values(at));
  let k = 1;
  while (taken.has(k)) k++;
  return k;
}

function boardSays(words) {
  $("board-said").textContent = words;
}

async function edit(change) {
  try {
    const out = await api("/api/edit", {text: text(), name: state.name, edit: change});
    E.replaceText(state.view, out.text);  // one undo step; the editor's listener re-lints
  } catch (e) {
    answer({status: "error", text: "That edit could not be made: " + e.message});
  }
}

function colours() {
  const sel = $("colour"), list = (state.puzzle && state.puzzle.colours) || [];
  $("colour-label").hidden = !list.length;
  const keep = sel.value;
  if (sel.options.length !== list.length || [...sel.options].some((o, i) => o.value !== list[i])) {
    sel.replaceChildren(...list.map(c => new Option(c, c)));
    if (list.includes(keep)) sel.value = keep;
  }
}

// ----------------------------------------------------------------------- prove
// The claims Prove can certify for the puzzle in the editor (the analysis says which
// apply), by the names of `trailkit prove --claim`; the choice stays while it applies.
const CLAIM_WORDS = {"unsolvable": "unsolvable", "shortest": "shortest walk",
                     "unique": "unique walk", "count": "count of walks",
                     "longest": "longest walk", "fewest-changes": "fewest changes",
                     "minimal-core": "minimal core"};

function claimChoices() {
  const sel = $("prove-claim"), list = (state.puzzle && state.puzzle.claims) || ["unsolvable"];
  const keep = sel.value;
  if (sel.options.length !== list.length || [...sel.options].some((o, i) => o.value !== list[i])) {
    sel.replaceChildren(...list.map(c => new Option(CLAIM_WORDS[c] || c, c)));
    sel.value = list.includes(keep) ? keep : list[0];
  }
}

// A solvable puzzle has nothing to prove unsolvable: offer the first claim that applies.
function nextClaim(out) {
  if (out.op === "prove" && out.next_claim && $("prove-claim").value === "unsolvable") {
    $("prove-claim").value = out.next_claim;
  }
}

// ------------------------------------------------------------------------ runs
async function run(op) {
  const forText = text();
  const body = {op, text: forText, name: state.name, slot, backend: $("backend").value,
                time_limit: +$("time-limit").value || 10,
                failures: op === "count" && $("count-failures").checked,
                claim: op === "prove" ? $("prove-claim").value : undefined,
                rules: {add: $("rule-add").value || undefined,
                        recolour: $("rule-recolour").checked || undefined,
                        remove: $("rule-remove").checked || undefined}};
  const button = $(op);
  state.running++;
  button.classList.add("busy");
  $("cancel").disabled = false;
  answer({status: "running", text: `${op}: running…`});
  const started = performance.now();
  try {
    const out = await api("/api/run", body);
    out.wall_ms = Math.round(performance.now() - started);
    if (out.status === "cancelled") {
      if (text() === forText) answer(out);
      return;
    }
    if (text() !== forText) return;  // the spec changed meanwhile: the answer is moot
    state.answerFor = forText;
    answer(out);
    nextClaim(out);
    if (out.svg) { drawSvg(out.svg); state.answerShown = true; showInspected(out); }
  } catch (e) {
    answer({status: "error", text: e.message});
  } finally {
    state.running--;
    button.classList.remove("busy");
    $("cancel").disabled = state.running === 0;
  }
}

function answer(out) {
  const t = $("answer-text");
  t.textContent = out.text || out.status;
  t.className = out.status;
  document.body.dataset.answer = out.status + (out.op ? ":" + out.op : "");
  state.steps = out.steps || [];
  state.stepsText = out.steps_text || "";
  $("walk").hidden = !state.steps.length;
  const list = $("steps");
  list.replaceChildren(...state.steps.map((s, i) => {
    const li = document.createElement("li");
    li.textContent = `${s.from} → ${s.to}` + (s.colour ? ` (${s.colour})` : "");
    li.onclick = () => stepTo(i + 1);
    return li;
  }));
  const reps = $("repairs");
  reps.replaceChildren(...(out.repairs || []).map((r, i) => {
    const li = document.createElement("li");
    const b = document.createElement("button");
    b.type = "button";
    b.className = "apply";
    b.textContent = "Apply: " + r.text;
    b.onclick = () => edit({kind: "changes", changes: r.apply});
    const view = document.createElement("button");
    view.type = "button";
    view.textContent = "Show";
    view.onclick = () => drawSvg(r.svg);
    li.append(b, " ", view, ` (${r.walk_text} in the repaired puzzle)`);
    if (i === 0) li.dataset.first = "1";
    return li;
  }));
  state.step = 0;
  if (state.steps.length) stepTo(0);
}

function answerStale() {
  if (state.answerFor !== null && state.answerFor !== text()) {
    state.answerFor = null;
    const t = $("answer-text");
    // a design's answer is about its candidates, not about the text in the editor
    if (!document.body.dataset.answer.endsWith(":design") && t.textContent && !t.textContent.endsWith("(before the last edit)")) {
      t.textContent += "\n(before the last edit)";
    }
    $("walk").hidden = true;
    state.steps = [];
  }
}

function stepTo(k) {
  const steps = state.steps, svg = svgEl();
  if (!svg) return;
  state.step = Math.max(0, Math.min(steps.length, k));
  const cur = state.step;
  svg.querySelectorAll(".current").forEach(e => e.classList.remove("current"));
  svg.querySelectorAll(".step").forEach(g =>
    g.classList.toggle("later", cur > 0 && Number(g.dataset.step) > cur));
  revealPositions(svg, cur);
  [...$("steps").children].forEach((li, i) => li.classList.toggle("current", i + 1 === cur));
  if (cur > 0) {
    const s = steps[cur - 1];
    svg.querySelectorAll(`.step[data-step="${cur}"]`).forEach(g => g.classList.add("current"));
    svg.querySelectorAll(`.edge[data-edge="${s.edge}"]`).forEach(g => g.classList.add("current"));
    svg.querySelectorAll(`.node[data-node="${CSS.escape(s.to)}"], .cell[data-node="${CSS.escape(s.to)}"]`)
      .forEach(g => g.classList.add("current"));
    $("steps").children[cur - 1].scrollIntoView({block: "nearest"});
    $("step-text").textContent = `Step ${cur} of ${steps.length}: ${s.from} → ${s.to}` +
      (s.colour ? ` (${s.colour})` : "");
  } else {
    $("step-text").textContent = `The whole walk: ${state.stepsText}`;
  }
  $("prev").disabled = cur === 0;
  $("next").disabled = cur === steps.length;
  document.body.dataset.step = String(cur);
}

// On a board the positions are written in the cells: at step k the cells up to
// position k + 1 (where the k-th move arrives) show theirs, the givens always.
function revealPositions(svg, cur) {
  let shown = 0;
  svg.querySelectorAll("text.position").forEach(t => {
    const first = Math.min(...t.dataset.position.split(",").map(Number));
    const later = cur > 0 && first > cur + 1 && t.dataset.given !== "yes";
    t.classList.toggle("later", later);
    const disc = t.previousElementSibling;
    if (disc && disc.tagName === "circle") disc.classList.toggle("later", later);
    if (!later) shown++;
  });
  document.body.dataset.positions = String(shown);
}

// --------------------------------------------------------------------- inspect
// Beside the inspected picture: what was marked on it, and the measures in the command
// line's own words (the answer under the picture holds its whole text).
function showInspected(out) {
  if (out.op !== "inspect" || out.status !== "solvable") return;
  const critical = out.critical || [], costly = out.costly || [];
  const plank = e => {
    const info = state.puzzle && state.puzzle.edges[e];
    return info ? `${info.u}–${info.v}` + (info.colour ? ` (${info.colour})` : "") : `edge ${e}`;
  };
  const n = (k, one, many) => `${k} ${k === 1 ? one : many}`;
  // a board's caption counts its givens' verdicts and critical moves, as drawn
  $("inspect-head").textContent = out.caption ||
    `${n(critical.length, "critical plank", "critical planks")} (outlined), ` +
    `${n(costly.length, "costly plank", "costly planks")} (shaded)`;
  $("inspect-found").replaceChildren(...[
    ...critical.map(e => ["critical", e]), ...costly.map(e => ["costly", e])]
    .map(([kind, e]) => {
      const li = document.createElement("li");
      li.className = kind;
      li.dataset.edge = String(e);
      li.textContent = plank(e);
      li.onclick = () => showEdge(e);
      return li;
    }));
  $("inspect-measures").replaceChildren(...(out.measures || []).map(m => {
    const tr = document.createElement("tr");
    tr.dataset.measure = m.key;
    const th = document.createElement("th"), td = document.createElement("td");
    th.textContent = m.words;
    td.textContent = m.value;
    tr.append(th, td);
    return tr;
  }));
  $("inspect-side").hidden = false;
  pictureSize(true);
}

// An inspected picture holds many small marks (step numbers, "+15 steps", the legend):
// it is shown at the size where its smallest text is READABLE_PX on screen, scrolling in
// its frame, centred; "Fit the picture" shows it whole again. (At 1500 px the fitted
// restored tyre puzzle's step numbers were 5 px high.)
const READABLE_PX = 11;

function pictureSize(readable) {
  const svg = svgEl(), pic = $("picture"), box = $("drawing");
  if (!svg) return;
  svg.style.width = svg.style.height = "";
  pic.classList.remove("readable");
  document.body.dataset.picture = "fit";
  $("picture-size").textContent = "Readable size";
  const sizes = [...svg.querySelectorAll("text")]
    .map(t => parseFloat(getComputedStyle(t).fontSize)).filter(s => s > 0);
  const fitted = svg.getScreenCTM().a, vb = svg.viewBox.baseVal;
  const k = sizes.length ? READABLE_PX / Math.min(...sizes) : 0;
  if (!readable || k <= fitted || !vb.width) return;  // (fitted, it is readable already)
  pic.classList.add("readable");
  svg.style.width = `${vb.width * k}px`;
  svg.style.height = `${vb.height * k}px`;
  box.scrollLeft = (box.scrollWidth - box.clientWidth) / 2;
  box.scrollTop = (box.scrollHeight - box.clientHeight) / 2;
  document.body.dataset.picture = "readable";
  $("picture-size").textContent = "Fit the picture";
}

// A plank of the list beside the picture: scrolled into view and marked on it.
function showEdge(e) {
  const svg = svgEl();
  if (!svg) return;
  svg.querySelectorAll(".edge.current").forEach(g => g.classList.remove("current"));
  const g = svg.querySelector(`.edge[data-edge="${e}"]`);
  if (!g) return;
  g.classList.add("current");
  g.scrollIntoView({block: "center", inline: "center"});
}

// ---------------------------------------------------------------------- design
function designAsk() {
  const num = id => { const v = $(id).value.trim(); return v === "" ? null : Number(v); };
  if ($("design-kind").value === "tour") {
    const low = num("design-givens-min"), high = num("design-givens-max");
    const givens = low === null && high === null ? null
      : `${low === null ? 0 : low}..${high === null ? $("design-board-cols").value * $("design-board-rows").value : high}`;
    return {kind: "tour", board: `${$("design-board-cols").value}x${$("design-board-rows").value}`,
            moves: $("design-moves").value, givens, unique: $("design-tour-unique").checked,
            symmetric: $("design-symmetric").checked, seed: num("design-seed"),
            count: num("design-count")};
  }
  const shape = $("design-shape").value;
  return {layout: shape === "spec" ? "spec"
            : `${shape}:${$("design-rows").value},${$("design-cols").value}`,
          colours: $("design-colours").value, seed: num("design-seed"),
          count: num("design-count"), min_length: num("design-min"),
          max_length: num("design-max"), unique: $("design-unique").checked,
          robust: $("design-robust").checked, thin: num("design-thin")};
}

function designSays(words, kind) {
  const s = $("design-status");
  s.textContent = words;
  s.className = kind || "";
}

// Generate: a bounded run like every other; the candidates come back as spec texts and
// are shown one by one, each a preview until it is opened in the editor.
async function generate(ev) {
  ev.preventDefault();
  const body = {text: text(), name: state.name, slot: designSlot, design: designAsk(),
                time_limit: +$("time-limit").value || 10};
  state.designing = body.design.layout === "spec" ? "spec" : "field";
  const button = $("design-generate");
  state.running++;
  button.classList.add("busy");
  $("cancel").disabled = false;
  designSays("generating…");
  state.design = {candidates: [], at: 0};  // the last ones go: they answered another ask
  $("design-found").hidden = true;
  answer({status: "running", text: "design: running…"});
  try {
    if (body.design.kind === "tour" && (await api("/api/warmup")).compiling) {
      // the server waits for it: the design's time limit starts once it is done
      designSays("compiling (once): the tour search is being compiled, once after "
        + "installing trailkit; the design's time limit starts when it is done…");
    }
    const out = await api("/api/design", body);
    answer(out);
    state.design = {candidates: out.candidates || [], at: 0};
    const n = state.design.candidates.length;
    designSays(out.status === "designed" ? `${n} ${n === 1 ? "design" : "designs"} made, each `
      + "certified (the answer below says what); open one in the editor to edit, solve or save it"
      : (out.text || out.status).split("\n")[0], out.status === "designed" ? "" : "error");
    $("design-found").hidden = !n;
    if (n) showCandidate(0);
  } catch (e) {
    answer({status: "error", text: e.message});
    designSays(e.message, "error");
  } finally {
    state.running--;
    state.designing = null;
    button.classList.remove("busy");
    $("cancel").disabled = state.running === 0;
  }
}

function showCandidate(k) {
  const list = state.design.candidates;
  if (!list.length) return;
  const at = state.design.at = Math.max(0, Math.min(list.length - 1, k));
  const c = list[at];
  drawSvg(c.svg, true);
  state.answerShown = true;
  state.answerFor = text();
  $("design-which").textContent = `${c.label} of ${list.length}`;
  $("design-said").textContent = (c.kind === "tour"
    ? `${c.givens} givens of ${c.cells} cells` + (c.solutions === 1 ? ", one solution" : "")
    : `shortest walk ${c.length} steps` +
      (c.shortest_walks === 1 ? ", the only one" : `, ${c.shortest_walks} shortest walks`)) +
    ` (seed ${c.seed})`;
  $("design-prev").disabled = at === 0;
  $("design-next").disabled = at === list.length - 1;
  document.body.dataset.candidate = String(at + 1);
}

// The candidate gets a file of its own: with a folder, a new spec (named as New… asks),
// never the open file's text, so Save cannot write a design over the spec it was made
// beside; without one, a scratch text (one step of undo; Save downloads it).
async function openCandidate() {
  const c = state.design.candidates[state.design.at];
  if (!c) return;
  if (!state.info.folder) {
    E.replaceText(state.view, c.text);
    designSays(`${c.label} is in the editor: download it to keep it ` +
               "(↶ Undo or Ctrl-Z brings your text back)");
    return;
  }
  const was = state.name;
  if (was && state.savedText !== null && state.savedText !== text()
      && !confirm(`${was} has changes not saved: open the design anyway (they are lost)?`)) return;
  const stem = (was || "design.yaml").replace(/\.ya?ml$/, "");
  let n = 1;
  while (state.files.includes(`${stem}-design-${n}.yaml`)) n++;
  const name = prompt("Name of the designed spec (a new file in the folder, ending in .yaml):",
                      `${stem}-design-${n}.yaml`);
  if (!name) return;
  try {
    const out = await api("/api/create", {name, text: c.text});
    listFiles(out.files);
    await openFile(name);
    $("files").value = name;
    designSays(`${c.label} is in the editor as ${name}, a new file` +
               (was ? `; ${was} is as it was` : ""));
  } catch (e) { designSays("not opened: " + e.message); }
}

function designShape() {
  const fromSpec = $("design-shape").value === "spec";
  $("design-rows").disabled = $("design-cols").disabled = fromSpec;
  const tour = $("design-kind").value === "tour";
  document.querySelectorAll("#design .walk-only").forEach(e => { e.hidden = tour; });
  document.querySelectorAll("#design .tour-only").forEach(e => { e.hidden = !tour; });
}

// ----------------------------------------------------------------------- files
function fileStatus() {
  const dirty = state.savedText !== null && state.savedText !== text();
  $("file-status").textContent = state.name ? state.name + (dirty ? " (changed)" : " (saved)")
    : "scratch spec (not saved: download it)";
}

async function openFile(name) {
  const out = await api("/api/file?name=" + encodeURIComponent(name));
  hideConflict();
  state.name = name;
  boardSays("");  // another file: its board is no change of this one's
  state.savedText = out.text;
  state.version = out.version;
  state.answerFor = null;
  E.setText(state.view, out.text);
  answer({status: "", text: ""});
  changed();
}

// Save, saying which version of the file the text replaces: when the file changed on
// disk since (another program, another page), the server refuses (409) and sends the
// disk's text, and the page shows both and lets the author choose.
async function save(base) {
  if (!state.name) { download(); return; }
  const mine = text();
  try {
    const out = await api("/api/save", {name: state.name, text: mine,
                                        base: base === undefined ? state.version : base});
    state.savedText = mine;
    state.version = out.version;
    hideConflict();
    fileStatus();
  } catch (e) {
    if (e.status === 409 && e.data && e.data.conflict) showConflict(e.data, mine);
    else $("file-status").textContent = "not saved: " + e.message;
  }
}

function showConflict(data, mine) {
  state.conflict = {disk: data.disk, version: data.version, mine};
  $("conflict-message").textContent = data.error;
  $("conflict-mine").textContent = mine;
  $("conflict-disk").textContent = data.disk;
  $("conflict").hidden = false;
  $("file-status").textContent = state.name + " (not saved: changed on disk)";
  document.body.dataset.conflict = "1";
}

function hideConflict() {
  state.conflict = null;
  $("conflict").hidden = true;
  delete document.body.dataset.conflict;
}

// The author keeps the page's text: it replaces the disk's version they were shown.
function keepMine() {
  if (state.conflict) save(state.conflict.version);
}

// The author takes the disk's text (one undoable step: Ctrl-Z brings theirs back).
function takeDisk() {
  const c = state.conflict;
  if (!c) return;
  E.replaceText(state.view, c.disk);
  state.savedText = c.disk;
  state.version = c.version;
  hideConflict();
  fileStatus();
}

async function create() {
  const name = prompt("Name of the new spec (in the folder, ending in .yaml):", "new-puzzle.yaml");
  if (!name) return;
  try {
    const out = await api("/api/create", {name, text: state.info.scratch});
    listFiles(out.files);
    await openFile(name);
    $("files").value = name;
  } catch (e) { $("file-status").textContent = "not created: " + e.message; }
}

function download() {
  const blob = new Blob([text()], {type: "application/yaml"});
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = (state.name || "scratch.yaml").split("/").pop();
  document.body.appendChild(a);
  a.click();
  setTimeout(() => { URL.revokeObjectURL(a.href); a.remove(); }, 1000);
}

function listFiles(files) {
  state.files = files;
  $("files").replaceChildren(...files.map(f => new Option(f, f)));
}

// ------------------------------------------------------------------------ start
async function start() {
  // what /api/info answers came inside the page (a JSON data block, not a script)
  const info = state.info = JSON.parse($("start-info").textContent);
  $("backend").replaceChildren(...info.backends.map(b => new Option(b, b)));
  $("time-limit").value = info.time_limit;
  $("file-controls").hidden = !info.folder;
  listFiles(info.files);
  // the editor is made holding the first spec: no second state to lay out
  state.view = E.create($("editor"), info.open.text, changed, nonce);
  document.querySelectorAll("button.run").forEach(b => b.onclick = () => run(b.dataset.op));
  $("picture-size").onclick = () => pictureSize(document.body.dataset.picture !== "readable");
  $("cancel").onclick = () => {
    for (const s of [slot, designSlot]) api("/api/cancel", {slot: s}).catch(() => {});
  };
  // a page that goes away (closed, reloaded, navigated off) stops its runs and
  // analyses: nobody will read their answers
  window.addEventListener("pagehide", () => {
    for (const s of [slot, designSlot]) {
      fetch("/api/cancel", {
        method: "POST", keepalive: true, headers: {"content-type": "application/json"},
        body: JSON.stringify({slot: s})}).catch(() => {});
    }
  });
  $("files").onchange = () => openFile($("files").value);
  $("new").onclick = create;
  $("save").onclick = () => save();
  $("conflict-keep").onclick = keepMine;
  $("conflict-take").onclick = takeDisk;
  $("conflict-close").onclick = hideConflict;
  $("download").onclick = download;
  $("undo").onclick = () => E.undo(state.view);
  $("redo").onclick = () => E.redo(state.view);
  $("prev").onclick = () => stepTo(state.step - 1);
  $("next").onclick = () => stepTo(state.step + 1);
  $("whole").onclick = () => stepTo(0);
  $("edge-close").onclick = hideMenu;
  $("design-toggle").onclick = () => {
    const form = $("design");
    form.hidden = !form.hidden;
    $("design-toggle").setAttribute("aria-expanded", String(!form.hidden));
  };
  $("design").onsubmit = generate;
  $("design-shape").onchange = designShape;
  $("design-kind").onchange = designShape;
  $("design-moves").replaceChildren(...(info.tour_moves || []).map(m => new Option(m, m)));
  $("design-prev").onclick = () => showCandidate(state.design.at - 1);
  $("design-next").onclick = () => showCandidate(state.design.at + 1);
  $("design-open").onclick = openCandidate;
  $("edge-reverse").onclick = () => { hideMenu(); edit({kind: "reverse", edge: +$("edge-menu").dataset.edge}); };
  $("edge-delete").onclick = () => { hideMenu(); edit({kind: "remove", edge: +$("edge-menu").dataset.edge}); };
  document.addEventListener("keydown", ev => {
    const inEditor = ev.target.closest && ev.target.closest(".cm-editor");
    const mod = ev.ctrlKey || ev.metaKey;
    if (mod && ev.key.toLowerCase() === "s") { ev.preventDefault(); save(); return; }
    if (inEditor || ev.target.tagName === "INPUT" || ev.target.tagName === "SELECT") return;
    if (mod && ev.key.toLowerCase() === "z") {
      ev.preventDefault();
      (ev.shiftKey ? E.redo : E.undo)(state.view);
    } else if (mod && ev.key.toLowerCase() === "y") { ev.preventDefault(); E.redo(state.view); }
    else if (ev.key === "ArrowRight" && state.steps.length) stepTo(state.step + 1);
    else if (ev.key === "ArrowLeft" && state.steps.length) stepTo(state.step - 1);
    else if (ev.key === "Home" && state.steps.length) stepTo(0);
    else if (ev.key === "Escape") {
      hideMenu();
      state.picked = null;
      svgEl() && svgEl().querySelectorAll(".node.picked").forEach(n => n.classList.remove("picked"));
    }
  });
  // the first spec comes read and analysed with the info: no further round trip
  state.name = info.open.name;
  state.savedText = info.open.name ? info.open.text : null;
  state.version = info.open.version;
  state.shown = state.seq = 1;
  show(info.open.analysis, info.open.text);
  fileStatus();
  document.body.dataset.readyMs = String(Math.round(performance.now()));  // since navigation
  document.body.dataset.ready = "1";
}
start().catch(e => { document.body.dataset.ready = "error"; $("answer-text").textContent = String(e); });
})();
