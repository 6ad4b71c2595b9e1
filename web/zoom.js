// Zoom and pan for boards too dense for a finger (rings, three-stones, triple-domino, the scan photo).
//
// Python draws an <svg data-zoom data-fit="x y w h" data-zoom-max="3"> whose viewBox is the view it
// keeps (boards/zoom.py); this module moves that viewBox while a gesture lasts, with no Python per
// pointer move, and when the gesture ends reports the new view through the hidden button beside the
// svg ([data-zoom-commit]: its data-value becomes "cx,cy,width" and it is clicked), so Python keeps it.
//
//   two fingers    pinch to zoom, drag to pan
//   one finger     drags the view once it is zoomed (a tap stays a tap)
//   a tap          on an svg with data-zoom-tap="2.6", not yet zoomed, and from a finger: zooms there
//                  (the points are too small to hit at the fitted size); the next tap plays
//   ctrl + wheel   (a trackpad's pinch) zooms; a plain wheel zooms only with data-zoom-wheel
//   keyboard focus moving to an element outside the view pans the view to it
const DRAG_START = 6;  // px a finger moves before a press becomes a drag
const TAP_SLOP_MS = 450;  // a click this soon after a drag or pinch is its end, not a tap
const COMMIT_MS = 250;  // wheel: report the view once the wheel has rested this long

const gestures = new WeakMap();  // svg → {pointers: Map(id → {x, y}), start: {...}, moved: bool}
let lastPointer = "mouse";
let quietUntil = 0;

function fitOf(svg) {
  const [x, y, w, h] = svg.dataset.fit.split(" ").map(Number);
  return { x, y, w, h };
}

function viewOf(svg) {
  const v = svg.viewBox.baseVal;
  return { x: v.x, y: v.y, w: v.width, h: v.height };
}

function zoomed(svg) {
  return viewOf(svg).w < fitOf(svg).w * 0.99;
}

// The view clamped: no wider than the fitted one, no narrower than fit / data-zoom-max, inside the fit.
function clamp(svg, x, y, w) {
  const fit = fitOf(svg);
  const most = Number(svg.dataset.zoomMax || 3);
  w = Math.min(fit.w, Math.max(fit.w / most, w));
  const h = w * fit.h / fit.w;
  x = Math.min(fit.x + fit.w - w, Math.max(fit.x, x));
  y = Math.min(fit.y + fit.h - h, Math.max(fit.y, y));
  return { x, y, w, h };
}

function show(svg, view) {
  const v = svg.viewBox.baseVal;
  v.x = view.x; v.y = view.y; v.width = view.w; v.height = view.h;
  svg.classList.toggle("zoomed", zoomed(svg));
}

function commit(svg) {
  const button = svg.parentNode && svg.parentNode.querySelector("[data-zoom-commit]");
  if (!button) return;
  const v = viewOf(svg);
  button.dataset.value = [v.x + v.w / 2, v.y + v.h / 2, v.w].map((n) => n.toFixed(1)).join(",");
  button.click();
}

// A point on screen in the svg's units.
function toBoard(svg, clientX, clientY) {
  const r = svg.getBoundingClientRect();
  const v = viewOf(svg);
  return { x: v.x + (clientX - r.left) * v.w / r.width, y: v.y + (clientY - r.top) * v.h / r.height };
}

// Zoom by `factor` keeping the board point under (clientX, clientY) where it is.
function zoomAt(svg, clientX, clientY, factor) {
  const r = svg.getBoundingClientRect();
  const v = viewOf(svg);
  const p = toBoard(svg, clientX, clientY);
  const w = v.w / factor;
  const kx = (clientX - r.left) / r.width;
  const ky = (clientY - r.top) / r.height;
  show(svg, clamp(svg, p.x - kx * w, p.y - ky * w * v.h / v.w, w));
}

function zoomable(target) {
  return target && target.closest ? target.closest("svg[data-zoom]") : null;
}

addEventListener("pointerdown", (event) => {
  lastPointer = event.pointerType;
  const svg = zoomable(event.target);
  if (!svg || (event.pointerType === "mouse" && event.button !== 0)) return;
  let g = gestures.get(svg);
  if (!g) { g = { pointers: new Map() }; gestures.set(svg, g); }
  g.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
  g.start = { view: viewOf(svg), points: new Map(g.pointers) };
  g.moved = g.pointers.size > 1;
}, true);

addEventListener("pointermove", (event) => {
  const svg = zoomable(event.target) || [...document.querySelectorAll("svg[data-zoom]")].find(
    (s) => gestures.get(s) && gestures.get(s).pointers.has(event.pointerId));
  const g = svg && gestures.get(svg);
  if (!g || !g.pointers.has(event.pointerId)) return;
  g.pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
  const ids = [...g.start.points.keys()].filter((id) => g.pointers.has(id));
  if (ids.length >= 2) {  // pinch: the distance between the two fingers scales the view
    const [a0, b0] = ids.slice(0, 2).map((id) => g.start.points.get(id));
    const [a1, b1] = ids.slice(0, 2).map((id) => g.pointers.get(id));
    const d0 = Math.hypot(a0.x - b0.x, a0.y - b0.y) || 1;
    const d1 = Math.hypot(a1.x - b1.x, a1.y - b1.y) || 1;
    show(svg, g.start.view);
    zoomAt(svg, (a0.x + b0.x) / 2, (a0.y + b0.y) / 2, d1 / d0);
    const after = viewOf(svg);
    const r = svg.getBoundingClientRect();
    const k = after.w / r.width;
    show(svg, clamp(svg, after.x - ((a1.x + b1.x) - (a0.x + b0.x)) / 2 * k,
                    after.y - ((a1.y + b1.y) - (a0.y + b0.y)) / 2 * k, after.w));
    g.moved = true;
    event.preventDefault();
    return;
  }
  const start = g.start.points.get(event.pointerId);
  if (!start || !zoomed(svg)) return;
  const dx = event.clientX - start.x;
  const dy = event.clientY - start.y;
  if (!g.moved && Math.hypot(dx, dy) < DRAG_START) return;
  if (!g.moved) {
    g.moved = true;
    svg.setPointerCapture(event.pointerId);
    svg.classList.add("dragging");
  }
  const r = svg.getBoundingClientRect();
  const k = g.start.view.w / r.width;
  show(svg, clamp(svg, g.start.view.x - dx * k, g.start.view.y - dy * k, g.start.view.w));
}, true);

function release(event) {
  for (const svg of document.querySelectorAll("svg[data-zoom]")) {
    const g = gestures.get(svg);
    if (!g || !g.pointers.delete(event.pointerId)) continue;
    if (g.pointers.size) {  // one finger of a pinch lifted: the other carries on from here
      g.start = { view: viewOf(svg), points: new Map(g.pointers) };
      continue;
    }
    svg.classList.remove("dragging");
    if (g.moved) {
      quietUntil = Date.now() + TAP_SLOP_MS;
      commit(svg);
    }
    gestures.delete(svg);
  }
}
addEventListener("pointerup", release, true);
addEventListener("pointercancel", release, true);

// Before the page's own click handler (main.py listens on the document, bubbling): a click that ends
// a drag is swallowed; a finger's tap on a dense board not yet zoomed zooms there instead of playing.
addEventListener("click", (event) => {
  const svg = zoomable(event.target);
  if (!svg) return;
  if (Date.now() < quietUntil) {
    event.stopPropagation();
    event.preventDefault();
    return;
  }
  const tapZoom = Number(svg.dataset.zoomTap || 0);
  if (tapZoom && lastPointer === "touch" && !zoomed(svg) && event.detail) {
    event.stopPropagation();
    event.preventDefault();
    zoomAt(svg, event.clientX, event.clientY, tapZoom);
    commit(svg);
  }
}, true);

addEventListener("wheel", (event) => {
  const svg = zoomable(event.target);
  if (!svg || !(event.ctrlKey || "zoomWheel" in svg.dataset)) return;
  event.preventDefault();
  zoomAt(svg, event.clientX, event.clientY, event.deltaY > 0 ? 1 / 1.15 : 1.15);
  clearTimeout(svg.zoomCommit);
  svg.zoomCommit = setTimeout(() => commit(svg), COMMIT_MS);
}, { passive: false, capture: true });

// The keyboard cursor leaving the view: bring it back into view (only for the keyboard's focus: the page
// also puts the focus back on the board after every move, wherever a finger or the mouse played).
addEventListener("focusin", (event) => {
  const svg = zoomable(event.target);
  if (!svg || !zoomed(svg) || !event.target.getBBox || !event.target.matches(":focus-visible")) return;
  const box = event.target.getBBox();
  const v = viewOf(svg);
  const cx = box.x + box.width / 2;
  const cy = box.y + box.height / 2;
  if (cx > v.x && cx < v.x + v.w && cy > v.y && cy < v.y + v.h) return;
  show(svg, clamp(svg, cx - v.w / 2, cy - v.h / 2, v.w));
  commit(svg);
});
