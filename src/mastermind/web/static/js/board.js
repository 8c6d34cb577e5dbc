// Drawing the board: pegs with their symbol inside, key pegs with a count, the rows.

// The usual peg colours, in the order of the game's colour names (red, green, blue, ...).
const STANDARD = ["#d7263d", "#2e9e44", "#2f6fdf", "#f4d03f", "#f07f13", "#8e44ad", "#1fb5c4",
  "#eeeeee", "#3b3b3b", "#e040a0"];
// Okabe and Ito's palette, told apart with every common colour vision; the symbol does the rest.
const COLOUR_BLIND = ["#e69f00", "#56b4e9", "#009e73", "#f0e442", "#0072b2", "#d55e00", "#cc79a7",
  "#000000", "#ffffff", "#999999"];

export function pegColour(color, palette) {
  const base = palette === "colour-blind" ? COLOUR_BLIND : STANDARD;
  if (color < base.length) return base[color];
  const hue = Math.round(((color * 0.618034) % 1) * 360);
  return `hsl(${hue} 70% ${45 + (color % 3) * 8}%)`;
}

function inkFor(colour) {
  if (!colour.startsWith("#")) return "#ffffff";
  const [r, g, b] = [1, 3, 5].map((i) => parseInt(colour.slice(i, i + 2), 16));
  return 0.299 * r + 0.587 * g + 0.114 * b > 140 ? "#000000" : "#ffffff";
}

export function el(tag, props = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(props)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k === "on") for (const [ev, fn] of Object.entries(v)) node.addEventListener(ev, fn);
    else if (k === "vars") for (const [name, value] of Object.entries(v)) node.style.setProperty(name, value);
    else if (k in node && typeof v !== "string") node[k] = v;
    else node.setAttribute(k, v === true ? "" : v);
  }
  for (const child of children.flat()) if (child !== null && child !== undefined) node.append(child);
  return node;
}

// One code peg: its symbol on its colour; null is a hole not filled yet; the blank a dashed hole.
export function peg(notation, color, palette, { tag = "span", masked = false, cursor = false, on } = {}) {
  const props = { class: "peg", on };
  if (tag === "button") props.type = "button";
  const node = el(tag, props);
  if (masked) {
    node.classList.add("masked");
    node.textContent = "●";
    return node;
  }
  if (color === null || color === undefined) {
    node.textContent = "·";
  } else {
    const c = notation.colors[color];
    node.textContent = c.blank ? "–" : c.symbol;
    if (c.blank) node.classList.add("blank");
    else {
      const colour = pegColour(color, palette);
      node.classList.add("filled");
      node.style.setProperty("--c", colour);
      node.style.setProperty("--t", inkFor(colour));
    }
  }
  if (cursor) node.classList.add("cursor");
  return node;
}

export function plural(n, word, words) {
  return `${n.toLocaleString("en")} ${n === 1 ? word : words || word + "s"}`;
}

export function colorName(notation, color) {
  if (color === null || color === undefined) return "empty";
  const c = notation.colors[color];
  return c.blank ? "empty hole" : `${c.name} (${c.symbol})`;
}

export function codeColors(notation, text) {
  // A code as the API writes it (one symbol a peg) back into colour numbers.
  return [...text].map((ch) => notation.keys[ch] ?? notation.keys[ch.toLowerCase()]);
}

export function countText(terms, black, white) {
  return `${black}${terms.keys[0]} ${white}${terms.keys[1]}`;
}

export function replyWords(terms, black, white) {
  if (terms.counted) {
    const word = (n, w) => `${n} ${n === 1 ? w : w + "s"}`;
    return `${word(black, terms.black)}, ${word(white, terms.white)}`;
  }
  return `${black} ${terms.black}, ${white} ${terms.white}`;
}

// Key pegs: black ones first, then white, then empty holes, and the count in letters (2B 1W).
export function keys(terms, pegs, reply) {
  const holes = el("span", { class: "key-holes", "aria-hidden": "true",
    vars: { "--kcols": String(Math.ceil(pegs / 2)) } });
  const black = reply ? reply.black : 0;
  const white = reply ? reply.white : 0;
  for (let i = 0; i < pegs; i++) {
    const kind = i < black ? " black" : i < black + white ? " white" : "";
    holes.append(el("span", { class: "key" + kind }));
  }
  const count = el("span", { class: "count", text: reply ? countText(terms, black, white) : "" });
  const label = reply ? replyWords(terms, black, white) : "no reply yet";
  return el("span", { class: "keys", role: "img", "aria-label": label }, holes, count);
}
