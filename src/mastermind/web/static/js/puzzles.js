// Puzzles: positions from the visitor's finished games and from the classic game's optimal trees,
// served one at a time by the server (GET /api/puzzles/next), a try valued by the games package
// (POST /api/puzzles/{id}/try), the solution on request (POST /api/puzzles/{id}/solution); the
// visitor's rating is the server's, moved by the first try at each puzzle. Which puzzle, which try
// counts and every sentence shown are the games package's (the command line's and the terminal
// board's too): the page only draws them. Taps on the colours first; keys too while the section
// shows (the game's symbols, Backspace, Enter).

import { api } from "./api.js";
import { codeColors, el, keys, peg } from "./board.js";

const $ = (id) => document.getElementById(id);

if (!document.querySelector("link[href='/static/puzzles.css']")) {
  document.head.append(el("link", { rel: "stylesheet", href: "/static/puzzles.css" }));
}

let puzzle = null; // the puzzle shown, as the server gave it
let notation = null;
let palette = "standard";
let guess = []; // the colours chosen so far
let settled = false; // solved or its solution shown: on to the next

function pegs() {
  return puzzle.rows.length ? puzzle.rows[0].guess.length : codeColors(notation, puzzle.codes?.[0] ?? "").length;
}

function codePegs(code) {
  return el("span", { class: "pegs", role: "img", "aria-label": code },
    codeColors(notation, code).map((c) => peg(notation, c, palette)));
}

function say(text, tone = "") {
  const line = $("puzzle-result");
  line.className = "puzzle-result" + (tone ? ` ${tone}` : "");
  line.textContent = text;
  if (text) line.scrollIntoView({ block: "nearest" });
}

function standing(player) {
  $("puzzle-standing").textContent = player.words;
}

function drawGuess() {
  const holes = [];
  for (let i = 0; i < pegs(); i++) holes.push(peg(notation, guess[i] ?? null, palette));
  $("puzzle-guess").replaceChildren(...holes);
  $("puzzle-try").disabled = settled || guess.length !== pegs();
  $("puzzle-solution").hidden = settled;
  $("puzzle-next").hidden = !settled;
}

function drawPalette() {
  const colours = notation.colors.map((c, i) => {
    const b = peg(notation, i, palette, { tag: "button", on: { click: () => add(i) } });
    b.setAttribute("aria-label", `${c.name} (${c.symbol})`);
    return b;
  });
  $("puzzle-palette").replaceChildren(...colours,
    el("button", { type: "button", class: "control", "aria-label": "Take back a colour", text: "⌫",
      on: { click: back } }));
}

function draw(answer) {
  puzzle = answer.puzzle;
  notation = answer.notation;
  standing(answer.player);
  if (!puzzle) {
    $("puzzle-title").textContent = "No puzzle here";
    $("puzzle-facts").textContent = "Puzzles come from your finished games and from the classic game's trees: " +
      "play a game, or choose the classic game in the settings.";
    $("puzzle-board").hidden = true;
    return;
  }
  $("puzzle-board").hidden = false;
  settled = false;
  guess = [];
  $("puzzle-title").textContent = puzzle.heading;
  $("puzzle-rows").replaceChildren(...puzzle.rows.map((r, i) => {
    const [black, white] = r.reply.split(",").map(Number);
    return el("li", { class: "puzzle-row" }, el("span", { class: "row-number", text: String(i + 1) }),
      codePegs(r.guess), keys(notation.terms, r.guess.length, { black, white }));
  }));
  $("puzzle-facts").textContent = puzzle.facts;
  drawPalette();
  say("");
  drawGuess();
}

function rated(moved) {
  return moved ? ` ${moved.words}` : "";
}

export async function nextPuzzle() {
  say("");
  try {
    draw(await api("GET", "/api/puzzles/next"));
  } catch (err) {
    say(err.message, "error");
    return;
  }
  $("puzzle-title").focus();
}

async function tryGuess() {
  if (settled || !puzzle || guess.length !== pegs()) return;
  const code = guess.map((c) => notation.colors[c].symbol).join("");
  $("puzzle-try").disabled = true;
  let answer;
  try {
    answer = await api("POST", `/api/puzzles/${encodeURIComponent(puzzle.id)}/try`, { guess: code });
  } catch (err) {
    say(err.message, "error");
    drawGuess();
    return;
  }
  standing(answer.player);
  say(answer.try.words + rated(answer.rated), answer.try.accepted ? "solved" : "again");
  settled = answer.try.accepted;
  guess = settled ? guess : [];
  drawGuess();
  if (settled) $("puzzle-next").focus();
}

async function solution() {
  if (settled || !puzzle) return;
  let answer;
  try {
    answer = await api("POST", `/api/puzzles/${encodeURIComponent(puzzle.id)}/solution`);
  } catch (err) {
    say(err.message, "error");
    return;
  }
  standing(answer.player);
  guess = codeColors(notation, answer.solution.guess);
  settled = true;
  say(answer.solution.words + rated(answer.rated), "shown");
  drawGuess();
  $("puzzle-next").focus();
}

function add(color) {
  if (settled || guess.length >= pegs()) return;
  guess.push(color);
  drawGuess();
}

function back() {
  if (settled) return;
  guess.pop();
  drawGuess();
}

function build() {
  const section = $("puzzles-section");
  section.replaceChildren(
    el("h2", { id: "puzzles-title", text: "Puzzles" }),
    el("p", { id: "puzzle-standing", class: "puzzle-standing", role: "status" }),
    el("h3", { id: "puzzle-title", tabindex: "-1" }),
    el("p", { id: "puzzle-facts", class: "puzzle-facts" }),
    el("div", { id: "puzzle-board" },
      el("ol", { id: "puzzle-rows", class: "puzzle-rows", "aria-label": "The rows so far" }),
      el("div", { id: "puzzle-guess", class: "pegs puzzle-guess", "aria-label": "Your try" }),
      el("div", { id: "puzzle-palette", class: "puzzle-palette", role: "group", "aria-label": "Colours" }),
      el("div", { class: "puzzle-actions" },
        el("button", { type: "button", id: "puzzle-try", class: "control primary", text: "Try", on: { click: tryGuess } }),
        el("button", { type: "button", id: "puzzle-solution", class: "control", text: "Solution", on: { click: solution } }),
        el("button", { type: "button", id: "puzzle-next", class: "control primary", text: "Next puzzle", hidden: true,
          on: { click: nextPuzzle } }))),
    el("p", { id: "puzzle-result", class: "puzzle-result", role: "status", "aria-live": "polite" }));
}

function onKey(e) {
  const section = $("puzzles-section");
  if (!section || section.hidden || !puzzle || e.altKey || e.metaKey || e.ctrlKey) return;
  if (e.target instanceof Element && e.target.closest("input, select, textarea, form")) return;
  const color = notation.keys[e.key] ?? notation.keys[e.key.toLowerCase()];
  if (e.key === "Backspace") back();
  else if (e.key === "Enter" && e.target instanceof HTMLButtonElement) return; // the button's own
  else if (e.key === "Enter") (settled ? nextPuzzle : tryGuess)();
  else if (e.key.length === 1 && color !== undefined) add(color);
  else return;
  e.preventDefault();
}

build();
document.addEventListener("keydown", onKey);
document.querySelector(".tab[data-section='puzzles-section']")?.addEventListener("click", async () => {
  try {
    palette = (await api("GET", "/api/settings")).settings.palette || palette;
  } catch {
    // the standard colours, then
  }
  nextPuzzle();
});
