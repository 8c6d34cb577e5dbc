// The moves: a tap on a peg, a key pegs' count, Guess, Undo, a hint, a correction taken, and the
// keys that do the same. Each asks the server (through app.js's act) and draws what it answers.

import { act, newGame, nextGame } from "./app.js";
import { codeColors, el, peg, plural, replyWords } from "./board.js";
import { render } from "./draw.js";
import { answerConfirm, ask } from "./ending.js";
import { reviewKey, showReview } from "./review.js";
import { $, expects, game, over, palette, reviewable, say, state } from "./state.js";

function codeText(colors) {
  const n = state.view.notation;
  return colors.map((c) => n.colors[c].symbol).join("");
}

export async function submit() {
  if (state.held && !state.busy) return nextGame();
  const x = expects();
  if (x === null) {
    if (over() && !state.busy && !state.confirm) await newGame();
    return;
  }
  if (x === "code") return submitGuess();
  if (x === "secret") return submitSecret();
  return submitReply();
}

function entered() {
  const missing = state.entry.filter((c) => c === null).length;
  if (missing) {
    const t = state.view.notation.terms;
    say(`${plural(missing, "hole")} still empty: a code has ${plural(state.view.rules.pegs, t.place)}.`, "error");
    render();
    return null;
  }
  return codeText(state.entry);
}

async function submitGuess() {
  const code = entered();
  if (code === null) return;
  // whether a guess is warned of, and why, is the games package's to say (answered in its words,
  // nothing played); the page keeps the code warned of, and the same code again plays it
  const answer = await act("guesses", { guess: code, warn: state.warned !== code });
  if (answer && answer.warning) {
    state.warned = code;
    // a touch screen has no Enter key (a coarse pointer, as the keyboard's help in style.css)
    const again = window.matchMedia("(pointer: coarse)").matches ? "Tap Guess again" : "Enter again";
    say(`${answer.warning}. ${again} to play it anyway.`, "warn");
    render();
  }
}

async function submitSecret() {
  if (state.entry.every((c) => c === null)) return act("secret", { secret: null });
  const code = entered();
  if (code !== null) await act("secret", { secret: code });
}

async function submitReply() {
  const reply = `${state.reply.black},${state.reply.white}`;
  const g = game();
  if (state.view.mode !== "match" && state.selected !== null && state.selected <= g.moves.length) {
    const row = state.selected;
    const answer = await act("fixes", { row, reply });
    if (answer) say(`Row ${row} is now ${replyWords(answer.notation.terms, ...reply.split(",").map(Number))}.`);
    render();
    return;
  }
  await act("replies", { reply });
}

export async function applyCorrection(number) {
  const g = game();
  if (!g || !g.problem || state.view.mode === "match") return;
  const fix = g.problem.corrections[number - 1];
  if (!fix) return;
  const answer = await act("fixes", { row: fix.row, reply: fix.reply });
  if (answer) say(`Row ${fix.row} is now ${fix.words}.`);
  render();
}

export async function undo() {
  if (!state.view || state.busy) return;
  await act("undo");
  if (state.message === null) say("Took back the last row.");
  render();
}

export async function hint() {
  if (expects() !== "code") return;
  const answer = await act("hint");
  if (!answer) return;
  const h = answer.hint;
  const n = answer.notation;
  const left = h.candidates === null ? "" : `${plural(h.candidates, "code")} still possible; `;
  const pegs = el("span", { class: "pegs", role: "img", "aria-label": h.guess },
    codeColors(n, h.guess).map((c) => peg(n, c, palette())));
  const note = h.note ? ` (${h.note})` : "";
  const line = el("span", {}, `Hint: ${left}${h.lead} `, pegs, ` (${h.guess})${note}.`);
  // kept while the guess is entered (a peg put does not clear it), until the next move's answer
  state.message = { node: answer.advice ? why(line, answer.advice) : line, hint: true };
  render();
}

// The hint that teaches: its one line, and under "Why" the games package's own sentences (the
// codes left, listed when few; how the guess splits them; the guesses expected; the last guess
// valued), the words of the command line and the terminal board. Open beside the board on a
// desktop; closed on a phone, where the board and the palette keep the screen.
function why(line, advice) {
  const wide = window.matchMedia("(min-width: 800px)").matches;
  return el("details", { class: "advice", open: wide },
    el("summary", {}, line, " ", el("span", { class: "why" }, "Why")),
    el("ul", { class: "advice-lines" }, advice.lines.map((text) => el("li", { text }))));
}

export function giveUp() {
  if (!state.view || over() || state.busy || state.held) return;
  const secret = state.view.mode === "match" ? "this game of the match" : "this game";
  ask(`Give up ${secret}? The code is shown and the game counts as given up.`, "Give up", () => act("give-up"));
}

export function leaveGame() {
  const g = game();
  if (state.busy) return;
  if (!g || over() || state.held || (g.moves.length === 0 && state.view.mode !== "match")) return newGame();
  ask("Start a new game? This one stays unfinished in your history, to resume later.", "New game",
    () => newGame());
}

export function put(color) {
  state.entry[state.cursor] = color;
  state.cursor = Math.min(state.cursor + 1, state.entry.length - 1);
  if (!state.message?.hint) say(null);
  render();
}

export function erase() {
  const x = expects();
  if (x === "code" || x === "secret") {
    if (state.entry[state.cursor] === null && state.cursor > 0) state.cursor -= 1;
    state.entry[state.cursor] = null;
  } else if (x === "reply") {
    if (state.reply.white > 0) state.reply.white -= 1;
    else if (state.reply.black > 0) state.reply.black -= 1;
  }
  render();
}

export function addKey(kind, step = 1) {
  if (expects() !== "reply") return;
  const r = state.reply;
  const next = r[kind] + step;
  if (next < 0 || (step > 0 && r.black + r.white >= state.view.rules.pegs)) return;
  r[kind] = next;
  render();
}

export function chooseRow(row) {
  const g = game();
  if (!g) return;
  if (row !== null && row <= g.moves.length) {
    state.selected = row;
    const m = g.moves[row - 1];
    state.reply = { black: m.black, white: m.white };
  } else {
    state.selected = null;
    state.reply = { black: 0, white: 0 };
  }
  render();
}

function selectStep(step) {
  const g = game();
  if (expects() !== "reply" || state.view.mode === "match") return;
  const rows = g.moves.length;
  const last = g.pending !== null ? rows + 1 : rows;
  const current = state.selected ?? rows + 1;
  chooseRow(Math.max(1, Math.min(last, current + step)));
}

export function onKey(e) {
  if (e.target instanceof Element && e.target.closest("input, select, textarea, form")) return;
  if (e.altKey || e.metaKey) return;
  if (!$("review-section").hidden) return reviewKey(e);
  if ($("board-section").hidden || !state.view) return;
  const k = e.key;
  if (state.confirm) {
    if (k === "Escape") {
      e.preventDefault();
      answerConfirm(false);
    }
    return;  // a question waits for its answer: no key plays meanwhile
  }
  if (e.ctrlKey) {
    if (k === "z" || k === "Z") {
      e.preventDefault();
      undo();
    }
    return;
  }
  const x = expects();
  if (k === "Enter") {
    if (e.target instanceof HTMLButtonElement) return; // the button itself is pressed
    e.preventDefault();
    submit();
  } else if (k === "Backspace") {
    e.preventDefault();
    erase();
  } else if (k === "Delete") {
    if (x === "code" || x === "secret") state.entry[state.cursor] = null;
    else if (x === "reply") state.reply = { black: 0, white: 0 };
    render();
  } else if (k === "ArrowLeft" || k === "ArrowRight") {
    if (x === "code" || x === "secret") {
      e.preventDefault();
      const step = k === "ArrowLeft" ? -1 : 1;
      state.cursor = Math.max(0, Math.min(state.entry.length - 1, state.cursor + step));
      render();
    }
  } else if (k === "ArrowUp" || k === "ArrowDown") {
    if (x === "reply" && state.view.mode !== "match") {
      e.preventDefault();
      selectStep(k === "ArrowUp" ? -1 : 1);
    }
  } else if (k === "?") {
    hint();
  } else if ((k === "r" || k === "R") && x === null && reviewable()) {
    e.preventDefault();
    showReview(state.view.id);
  } else if (k.length === 1) {
    const n = state.view.notation;
    if (x === "code" || x === "secret") {
      const color = n.keys[k] ?? n.keys[k.toLowerCase()];
      if (color !== undefined) {
        e.preventDefault();
        put(color);
      }
    } else if (x === "reply") {
      const letters = n.terms.keys.toLowerCase();
      const lower = k.toLowerCase();
      if (lower === "b" || lower === letters[0]) addKey("black");
      else if (lower === "w" || lower === letters[1]) addKey("white");
      else if (/^[1-9]$/.test(k) && game()?.problem) applyCorrection(Number(k));
    }
  }
}
