// The rules graph, explored: pan (drag), zoom (wheel, or the + and − buttons) and a
// click on a rule to see its neighbourhood (the rule, what it touches and what touches
// it, zoomed to; the rest faded). Esc, a second click or "Whole graph" shows all again.
// Works on Graphviz's SVG, whose nodes and edges carry their ids in <title>; without
// Graphviz the page lists the rules, and a click there shows the neighbours only.
"use strict";

function exploreGraph(box, g) {
  const near = neighbours(g.edges);
  const caption = document.createElement("p");
  caption.className = "graph-caption";
  caption.setAttribute("aria-live", "polite");
  const svg = box.querySelector("svg");
  const tools = document.createElement("div");
  tools.className = "graph-tools";
  box.before(tools, caption);
  let focused = null;

  function show(id) {
    focused = id === focused ? null : id;
    const keep = focused === null ? null : new Set([focused, ...(near.get(focused) || [])]);
    for (const n of nodeElements(box)) n.classList.toggle("near", keep !== null && keep.has(nodeId(n)));
    for (const e of box.querySelectorAll("g.edge")) {
      const [a, b] = (e.querySelector("title")?.textContent || "").split("->");
      e.classList.toggle("near", keep !== null && (a === focused || b === focused) && keep.has(a) && keep.has(b));
    }
    box.classList.toggle("focused", keep !== null);
    caption.textContent = keep === null ? "" : `${label(g, focused)} and the ${keep.size - 1} rules, zones and counters next to it`;
    if (svg) zoomTo(svg, keep === null ? null : [...box.querySelectorAll("g.node.near")]);
  }

  for (const n of nodeElements(box)) {
    n.style.cursor = "pointer";
    n.addEventListener("click", (ev) => { ev.stopPropagation(); show(nodeId(n)); });
  }
  document.addEventListener("keydown", (ev) => { if (ev.key === "Escape" && focused !== null) show(focused); });
  tools.append(tool("Whole graph", "whole", () => { if (focused !== null) show(focused); else if (svg) zoomTo(svg, null); }));
  if (!svg) return;
  tools.append(tool("+", "zoom in", () => zoom(svg, 0.8)), tool("−", "zoom out", () => zoom(svg, 1.25)));
  svg.dataset.whole = svg.getAttribute("viewBox");
  svg.addEventListener("wheel", (ev) => { ev.preventDefault(); zoom(svg, ev.deltaY > 0 ? 1.15 : 0.87, ev); }, {passive: false});
  pannable(svg);
}

function neighbours(edges) {
  const near = new Map();
  for (const {source, target} of edges) {
    if (!near.has(source)) near.set(source, new Set());
    if (!near.has(target)) near.set(target, new Set());
    near.get(source).add(target);
    near.get(target).add(source);
  }
  return near;
}

function nodeElements(box) {
  return box.querySelectorAll("g.node, li[data-node]");
}

function nodeId(n) {
  return n.dataset.node || n.querySelector("title")?.textContent;
}

function label(g, id) {
  const n = g.nodes.find((x) => x.id === id);
  return n ? `${n.kind} ${n.label}` : id;
}

function tool(text, name, action) {
  const b = document.createElement("button");
  b.textContent = text;
  b.setAttribute("aria-label", name);
  b.title = name;
  b.addEventListener("click", action);
  return b;
}

function viewBox(svg) {
  return svg.getAttribute("viewBox").split(/[\s,]+/).map(Number);
}

// scale the view by f (<1 zooms in) about the pointer, or about the centre
function zoom(svg, f, ev) {
  const [x, y, w, h] = viewBox(svg);
  let cx = x + w / 2, cy = y + h / 2;
  if (ev) {
    const r = svg.getBoundingClientRect();
    cx = x + ((ev.clientX - r.left) / r.width) * w;
    cy = y + ((ev.clientY - r.top) / r.height) * h;
  }
  svg.setAttribute("viewBox", [cx - (cx - x) * f, cy - (cy - y) * f, w * f, h * f].join(" "));
}

function pannable(svg) {
  let from = null;
  svg.addEventListener("pointerdown", (ev) => { from = [ev.clientX, ev.clientY, viewBox(svg)]; });
  svg.addEventListener("pointermove", (ev) => {
    if (!from || !(ev.buttons & 1)) return;
    const [x0, y0, [x, y, w, h]] = from, r = svg.getBoundingClientRect();
    const s = Math.max(w / r.width, h / r.height);  // the drawing is fitted, aspect kept
    svg.setAttribute("viewBox", [x - (ev.clientX - x0) * s, y - (ev.clientY - y0) * s, w, h].join(" "));
  });
  for (const end of ["pointerup", "pointerleave"]) svg.addEventListener(end, () => { from = null; });
}

// fit the view to these elements (in the SVG's own units), or to the whole drawing
function zoomTo(svg, elements) {
  if (!elements || !elements.length) {
    svg.setAttribute("viewBox", svg.dataset.whole);
    return;
  }
  const toSvg = svg.getScreenCTM().inverse();
  let x0 = Infinity, y0 = Infinity, x1 = -Infinity, y1 = -Infinity;
  for (const e of elements) {
    const b = e.getBBox(), m = toSvg.multiply(e.getScreenCTM());
    for (const [px, py] of [[b.x, b.y], [b.x + b.width, b.y + b.height]]) {
      const p = new DOMPoint(px, py).matrixTransform(m);
      x0 = Math.min(x0, p.x); y0 = Math.min(y0, p.y); x1 = Math.max(x1, p.x); y1 = Math.max(y1, p.y);
    }
  }
  const pad = 20;
  svg.setAttribute("viewBox", [x0 - pad, y0 - pad, x1 - x0 + 2 * pad, y1 - y0 + 2 * pad].join(" "));
}
