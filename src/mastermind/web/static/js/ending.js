// How a game ends on the page: the moment of a win, a match's finished game held on the board
// until the visitor moves on, and the question asked before a game is ended by a tap.

import { codeColors, el, peg, plural } from "./board.js";
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

export function heldText(v, held) {
  const named = (p) => (v.players[p - 1] === "human" ? `player ${p}` : v.players[p - 1]);
  // in a friend's match each device speaks to its own player
  const who = (p) => (!v.friend ? named(p) : p === v.friend.you ? "you" : "your friend");
  const how = held.outcome === "won" ? `broke the code in ${plural(held.guesses, "guess", "guesses")}` :
    held.outcome === "gave-up" ? "gave up" : "did not break the code";
  const breaker = v.rounds.find((x) => x.number === held.round)?.breaker;
  const name = breaker ? who(breaker) : "the breaker";
  return `Game ${held.round}: ${name} ${how}; points ${held.points.join("-")}`;
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

// The moment of a win: a card with what was won and the code, its pegs set one by one.
function winWords(v, g) {
  const n = plural(g.moves.length, "guess", "guesses");
  const last = g.moves[g.moves.length - 1].guess;
  if (v.mode === "break") return [`You broke the code in ${n}!`, g.hints ? `With ${plural(g.hints, "hint")}.` : ""];
  if (v.mode === "solve") return [`Found it: ${last} in ${n}.`, `${v.strategy} broke your code.`];
  if (v.friend) {  // a friend's match: both players are people, on their own devices
    // a game held on the board is a round behind the match: its own breaker, not the current one's
    const held = state.held && v.rounds.find((x) => x.number === state.held.round);
    return (held || v.round).breaker === v.friend.you ? [`You broke the code in ${n}!`, ""] :
      [`Your friend broke your code in ${n}.`, ""];
  }
  if (g.breaker === "human") return [`You broke the code in ${n}!`, ""];
  return null;
}

export function drawMoment(v, g, n, palette, reviewable) {
  const box = $("moment");
  const words = g && g.won && !state.busy ? winWords(v, g) : null;
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
