// The game on one chart (SVG): the codes left after each guess, the player's line against the best
// guess's at each move, on a log scale, each move's point marked with its verdict. The points are
// the games package's (the review's "chart"); a tap on a point opens that move (onPick(number)).

const NS = "http://www.w3.org/2000/svg";
const W = 360, H = 200, LEFT = 44, RIGHT = 14, TOP = 14, BOTTOM = 30;

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const child of children) if (child) node.append(child);
  return node;
}

function ticks(top) {
  // powers of ten up to the top, and the top itself: 1, 10, 100, 1000, 1296
  const out = [];
  for (let v = 1; v < top; v *= 10) out.push(v);
  out.push(top);
  return out.filter((v, i) => i === out.length - 1 || Math.log(top / v) > 0.35);
}

export function chart(points, marks, onPick) {
  if (!points.length) return null;
  const top = Math.max(2, ...points.map((p) => Math.max(p.left, p.best)));
  const last = points[points.length - 1].number || 1;
  const x = (n) => LEFT + (n / last) * (W - LEFT - RIGHT);
  const y = (v) => TOP + (1 - Math.log(Math.max(v, 1)) / Math.log(top)) * (H - TOP - BOTTOM);
  const grid = ticks(top).map((v) => svg("g", { class: "chart-tick" },
    svg("line", { x1: LEFT, x2: W - RIGHT, y1: y(v), y2: y(v) }),
    Object.assign(svg("text", { x: LEFT - 6, y: y(v) + 4, "text-anchor": "end" }), { textContent: v.toLocaleString("en") })));
  const numbers = points.map((p) => Object.assign(svg("text", { x: x(p.number), y: H - 10, "text-anchor": "middle",
    class: "chart-number" }), { textContent: String(p.number) }));
  const line = (key, cls) => svg("polyline", { class: cls, fill: "none",
    points: points.map((p) => `${x(p.number).toFixed(1)},${y(p[key]).toFixed(1)}`).join(" ") });
  const best = points.slice(1).map((p) => svg("rect", { class: "chart-best", x: x(p.number) - 3.5,
    y: y(p.best) - 3.5, width: 7, height: 7 }));
  const dots = points.slice(1).map((p) => {
    const label = `Guess ${p.number}: ${p.verdict}, ${p.left.toLocaleString("en")} left`;
    const dot = svg("g", { class: `chart-point verdict-${p.verdict}`, tabindex: 0, role: "button",
      "aria-label": label, "data-number": p.number },
    svg("circle", { class: "chart-hit", cx: x(p.number), cy: y(p.left), r: 16 }),
    svg("circle", { class: "chart-dot", cx: x(p.number), cy: y(p.left), r: 6 }),
    Object.assign(svg("text", { x: x(p.number), y: y(p.left) - 10, "text-anchor": "middle", class: "mark" }),
      { textContent: p.verdict === "best" || p.verdict === "good" ? "" : marks[p.verdict] }));
    dot.addEventListener("click", () => onPick(p.number));
    dot.addEventListener("keydown", (e) => {
      if (e.key === "Enter" || e.key === " ") { e.preventDefault(); onPick(p.number); }
    });
    return dot;
  });
  const picture = svg("svg", { viewBox: `0 0 ${W} ${H}`, class: "review-chart-svg", role: "group",
    "aria-label": "Codes left after each guess: yours against the best guess's (log scale)" },
  ...grid, ...numbers, line("best", "chart-line-best"), line("left", "chart-line"), ...best, ...dots);
  const legend = document.createElement("p");
  legend.className = "review-chart-legend";
  legend.innerHTML = '<span class="key-yours">●</span> codes left after your guess · ' +
    '<span class="key-best">■</span> after the best guess · tap a point for its move';
  const figure = document.createElement("figure");
  figure.id = "review-chart";
  figure.className = "review-chart";
  figure.append(picture, legend);
  return figure;
}
