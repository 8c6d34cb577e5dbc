// How a game ends on the page: the moment of a win, a match's finished game held on the board
// until the visitor moves on, and the question asked before a game is ended by a tap.

import { codeColors, el, peg } from "./board.js";
import { render } from "./draw.js";
import { state } from "./state.js";

const $ = (id) => document.getElementById(id);

// A match's game that has just finished stays on the board, its last row and its code shown,
// until the visitor moves on ("Next game"); the match's next game waits for that. At one device,
// from the move's events; in a friend's match the server keeps it, per player (app.js's show).
export function holdRound(events) {
  const done = events.filter((e) => e.kind === "round-over" && e.game);
  if (done.length) state.held = done[done.length - 1];
}

// Ending a game asks first, in the page (a tap meant for Guess or Undo must not end it).
export function ask(text, yes, action) {
  state.confirm = { text, yes, action };
  render();
  $("confirm-no").focus();
}

export function answerConfirm(yes) {
  const c = state.confirm;
  state.confirm = null;
  render();
  if (yes && c) c.action();
}

export function drawConfirm() {
  const c = state.confirm;
  $("confirm").hidden = c === null;
  if (!c) return;
  $("confirm-text").textContent = c.text;
  $("confirm-yes").textContent = c.yes;
}

// The moment of a win: a card with what was won and the code, its pegs set one by one. Its words
// are the server's (the games package's): a game's ending, or the match's finished game held on
// the board (none where a computer broke the code).
function winWords(v) {
  const lines = v.mode === "match" ? (state.held ? state.held.ending : []) : v.ending;
  return lines && lines.length ? [lines[0], lines.slice(1).join(" ")] : null;
}

export function drawMoment(v, g, n, palette, reviewable) {
  const box = $("moment");
  const words = g && g.won && !state.busy ? winWords(v) : null;
  box.hidden = words === null;
  if (!words) {
    box.replaceChildren();
    delete box.dataset.shown;
    return;
  }
  const key = `${v.id}:${state.held ? state.held.round : ""}`;
  if (box.dataset.shown === key) return;  // drawn once: its pegs are set once, not at every render
  box.dataset.shown = key;
  const code = g.secret || g.moves[g.moves.length - 1].guess;
  const next = v.mode === "match" ? "Enter: the next game" :
    `Enter: a new game${reviewable ? " · R: the review" : ""}`;
  box.replaceChildren(
    el("span", { class: "medal", "aria-hidden": "true", text: "★" }),
    el("h2", { text: words[0] }),
    el("p", {}, words[1] ? `${words[1]} ` : "", el("span", { class: "keys-only", text: next })),
    el("span", { class: "pegs", role: "img", "aria-label": `The code: ${code}` },
      codeColors(n, code).map((c) => peg(n, c, palette))));
}
