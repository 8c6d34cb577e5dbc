// The first visit's short game that teaches what the key pegs mean: a small real game (3 pegs,
// 4 colours), with each reply the server gives put into words under the board. It can be skipped,
// and is never offered again on this browser once played or skipped.

import { newGame } from "./app.js";
import { drawHooks, state } from "./state.js";
import { el } from "./board.js";

const $ = (id) => document.getElementById(id);
const DONE = "mastermind-tutorial-done";
const RULES = { pegs: 3, colors: 4, repeats: true, max_guesses: 8, blank: false };

let gameId = null; // the tutorial's game, once started

function seen() {
  try {
    return localStorage.getItem(DONE) === "yes";
  } catch {
    return true; // no storage: never pester
  }
}

function finish() {
  try {
    localStorage.setItem(DONE, "yes");
  } catch {
    // the browser keeps nothing: the offer is made again next time
  }
  $("tutorial").hidden = true;
}

function plural(n, word) {
  return `${n} ${word}${n === 1 ? "" : "s"}`;
}

// The last reply in words: what a black and a white key peg say, and what they do not.
function explain(v) {
  if (!v.moves.length) {
    return "Tap three colours (or type 1-4), then Guess. The code has 3 pegs of 4 colours; a colour may repeat.";
  }
  const last = v.moves[v.moves.length - 1];
  const { black, white } = last;
  const parts = [];
  if (black) parts.push(`${plural(black, "black key peg")}: ${black === 1 ? "a peg" : `${black} pegs`} of the right colour in the right place`);
  if (white) parts.push(`${plural(white, "white key peg")}: ${white === 1 ? "a peg" : `${white} more pegs`} of a right colour in the wrong place`);
  if (!black && !white) parts.push("no key peg: none of these colours is in the code");
  const which = black + white && black < RULES.pegs ? " The key pegs never say which of your pegs they mean: that is the puzzle." : "";
  if (v.finished) {
    return v.won ? `${parts[0]}: all three. You broke the code! That is all there is to it.` :
      `The code was ${v.secret}. Each reply narrowed it down; try a real game now.`;
  }
  return `Guess ${v.moves.length}, ${last.guess}: ${parts.join("; ")}.${which}`;
}

function draw(v) {
  const panel = $("tutorial");
  // a visitor who plays a game of their own has answered the offer for this visit: the board is
  // theirs whole (offered again on the next, as nothing was said)
  const g = v && (v.mode === "match" ? v.game : v);
  if (gameId === null && g && g.moves && g.moves.length) $("tutorial-offer").hidden = true;
  // nor while a friend's match is on the board: its link and its rows come first there
  if (gameId === null && v && v.friend) $("tutorial-offer").hidden = true;
  if (gameId === null) return;
  if (!v || v.id !== gameId) {
    panel.hidden = true;
    return;
  }
  panel.hidden = false;
  $("tutorial-text").textContent = explain(v);
  $("tutorial-skip").textContent = v.finished ? "Done" : "Skip";
  if (v.finished) finish();
  panel.hidden = false;
}

async function start() {
  $("tutorial-offer").hidden = true;
  await newGame({ mode: "break", rules: RULES });
  if (state.view) gameId = state.view.id;
  draw(state.view);
}

function wire() {
  const side = document.querySelector("#board-section .side");
  side.prepend(
    // one line beside its two buttons (two short lines on a phone): the palette and Guess stay on
    // the screen under a whole board while it is offered
    el("div", { id: "tutorial-offer", class: "tutorial tutorial-offer", role: "dialog", "aria-label": "A first game",
      hidden: true },
      el("p", { text: "New here? Learn the key pegs." }),
      el("div", { class: "controls" },
        el("button", { type: "button", id: "tutorial-start", class: "control primary", text: "Show me",
          on: { click: start } }),
        el("button", { type: "button", id: "tutorial-no", class: "control", text: "No thanks",
          on: { click: () => { finish(); $("tutorial-offer").hidden = true; } } }))),
    el("div", { id: "tutorial", class: "tutorial", role: "status", "aria-live": "polite", hidden: true },
      el("p", { id: "tutorial-text" }),
      el("button", { type: "button", id: "tutorial-skip", class: "control", text: "Skip",
        on: { click: () => { finish(); gameId = null; } } })));
  drawHooks.push(draw);
  // offered on a first visit only, and not to a friend following a link to a match
  if (!seen() && !location.pathname.startsWith("/join/")) $("tutorial-offer").hidden = false;
}

wire();
