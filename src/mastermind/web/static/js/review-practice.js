// Practice from your mistakes: the position before each mistake or blunder of the reviewed game
// (the review's "practice"), a guess tried there (POST /api/games/{id}/review/practice), valued by
// the games package as the review values a move; accepted within its margin. Solution, skip, and a
// count of the positions solved. Taps on the colours first; keys too (symbols, Backspace, Enter).

import { api } from "./api.js";
import { codeColors, el, keys, peg } from "./board.js";

const $ = (id) => document.getElementById(id);

let game = null; // {id, notation, pegs, positions, palette}
let at = 0; // the position shown
let guess = []; // the colours chosen so far
let settled = false; // the position is solved or its solution shown: on to the next
const solved = new Set();

function plural(n, word) {
  return `${n.toLocaleString("en")} ${n === 1 ? word : word + "s"}`;
}

function codePegs(code) {
  return el("span", { class: "pegs", role: "img", "aria-label": code },
    codeColors(game.notation, code).map((c) => peg(game.notation, c, game.palette)));
}

function say(text, tone = "") {
  const line = $("practice-result");
  line.className = "practice-result" + (tone ? ` ${tone}` : "");
  line.textContent = text;
  if (text) line.scrollIntoView({ block: "nearest" });
}

function count() {
  $("practice-count").textContent = `Solved ${solved.size} of ${plural(game.positions.length, "position")}`;
}

function drawGuess() {
  const holes = [];
  for (let i = 0; i < game.pegs; i++) holes.push(peg(game.notation, guess[i] ?? null, game.palette));
  $("practice-guess").replaceChildren(...holes);
  $("practice-try").disabled = settled || guess.length !== game.pegs;
  $("practice-solution").hidden = $("practice-skip").hidden = settled;
}

function drawPosition() {
  const p = game.positions[at];
  settled = false;
  guess = [];
  const rows = p.rows.map((r, i) => {
    const [black, white] = r.reply.split(",").map(Number);
    return el("li", { class: "practice-row" }, el("span", { class: "row-number", text: String(i + 1) }),
      codePegs(r.guess), keys(game.notation.terms, game.pegs, { black, white }));
  });
  const codes = p.codes ? `: ${p.codes.join(" ")}` : "";
  $("practice-title").textContent = `Position ${at + 1} of ${game.positions.length}: guess ${p.number}`;
  $("practice-rows").replaceChildren(...rows);
  $("practice-facts").textContent = `${plural(p.count, "code")} possible${codes}. ` +
    `You played ${p.played} here: ${p.verdict} (${p.loss_words}). Find a better guess.`;
  $("practice-next").hidden = true;
  say("");
  drawGuess();
}

async function tryGuess() {
  if (settled || guess.length !== game.pegs) return;
  const p = game.positions[at];
  const code = guess.map((c) => game.notation.colors[c].symbol).join("");
  $("practice-try").disabled = true;
  let answer;
  try {
    answer = await api("POST", `/api/games/${game.id}/review/practice`, { number: p.number, guess: code });
  } catch (err) {
    say(err.message, "error");
    drawGuess();
    return;
  }
  const tried = answer.attempt;
  say(tried.words, tried.accepted ? "solved" : "again");
  if (tried.accepted) {
    solved.add(p.number);
    count();
    settle();
  } else {
    guess = [];
    drawGuess();
  }
}

function settle() {
  settled = true;
  $("practice-next").hidden = false;
  $("practice-next").textContent = at + 1 < game.positions.length ? "Next position" : "Done";
  drawGuess();
  $("practice-next").focus();
}

function solution() {
  if (settled) return;
  const p = game.positions[at];
  guess = codeColors(game.notation, p.best);
  say(`The solution: ${p.best}, ${p.best_expected.toFixed(4)} guesses expected.`, "shown");
  settle();
}

function next() {
  if (at + 1 < game.positions.length) {
    at += 1;
    drawPosition();
  } else {
    $("practice").hidden = true;
    $("practice-start").hidden = false;
    $("practice-start").textContent = `Practise again (${solved.size} of ${game.positions.length} solved)`;
    $("practice-start").focus();
  }
}

function add(color) {
  if (settled || guess.length >= game.pegs) return;
  guess.push(color);
  drawGuess();
}

function back() {
  if (settled) return;
  guess.pop();
  drawGuess();
}

// The practice panel of a reviewed game: a start button, then the panel (hidden until started).
export function practicePanel(id, review, notation, palette) {
  game = { id, notation, pegs: review.rules.pegs, positions: review.practice, palette };
  at = 0;
  solved.clear();
  if (!game.positions.length) {
    return el("p", { id: "practice-none", class: "practice-none",
      text: "No mistake or blunder to practise in this game." });
  }
  const colours = notation.colors.map((c, i) => peg(notation, i, palette,
    { tag: "button", on: { click: () => add(i) } }));
  colours.forEach((b, i) => b.setAttribute("aria-label", `${notation.colors[i].name} (${notation.colors[i].symbol})`));
  const start = el("button", { type: "button", id: "practice-start", class: "control primary",
    text: `Practise your mistakes (${plural(game.positions.length, "position")})`,
    on: { click: () => { start.hidden = true; $("practice").hidden = false; at = 0; drawPosition(); count();
      $("practice-title").focus(); } } });
  const panel = el("section", { id: "practice", class: "practice", hidden: true, "aria-labelledby": "practice-title" },
    el("h3", { id: "practice-title", tabindex: "-1" }),
    el("p", { id: "practice-count", class: "practice-count", role: "status" }),
    el("ol", { id: "practice-rows", class: "practice-rows" }),
    el("p", { id: "practice-facts", class: "practice-facts" }),
    el("div", { id: "practice-guess", class: "pegs practice-guess", "aria-label": "Your try" }),
    el("div", { id: "practice-palette", class: "practice-palette" }, colours,
      el("button", { type: "button", class: "control", "aria-label": "Take back a colour", text: "⌫",
        on: { click: back } })),
    el("div", { class: "practice-actions" },
      el("button", { type: "button", id: "practice-try", class: "control primary", text: "Try", on: { click: tryGuess } }),
      el("button", { type: "button", id: "practice-solution", class: "control", text: "Solution", on: { click: solution } }),
      el("button", { type: "button", id: "practice-skip", class: "control", text: "Skip",
        on: { click: () => { if (!settled) next(); } } }),
      el("button", { type: "button", id: "practice-next", class: "control primary", hidden: true, on: { click: next } })),
    el("p", { id: "practice-result", class: "practice-result", role: "status", "aria-live": "polite" }));
  return el("div", { class: "practice-wrap" }, start, panel);
}

// Keys while the practice is open: a colour's key adds it, Backspace takes one back, Enter tries.
export function practiceKey(e) {
  const panel = $("practice");
  if (!game || !panel || panel.hidden) return false;
  if (e.key === "Backspace") back();
  else if (e.key === "Enter") (settled ? next : tryGuess)();
  else if (e.key.length === 1 && game.notation.keys[e.key] !== undefined) add(game.notation.keys[e.key]);
  else if (e.key.length === 1 && game.notation.keys[e.key.toLowerCase()] !== undefined) add(game.notation.keys[e.key.toLowerCase()]);
  else return false;
  e.preventDefault();
  return true;
}
