// What the page holds between two answers of the server, and what every part of it asks of that:
// the game on the board, whose turn it is, the message under the board. Nothing here talks to the
// server or draws.

export const $ = (id) => document.getElementById(id);

export const state = {
  view: null, // the game as the server answered it last
  entry: [], // the code being entered: colour numbers, null for an empty hole
  cursor: 0,
  reply: { black: 0, white: 0 }, // the reply being entered
  selected: null, // a played row chosen to fix (1-based); null: the waiting guess
  busy: false,
  message: null, // {text | node, tone, hint}: hint, kept while a guess is entered
  peek: false, // whether the code a person chooses in a match is shown (masked otherwise)
  warned: null, // a guess the server warned of once: the same code again plays it
  settings: null,
  choices: null,
  log: [],
  timer: null,
  held: null, // a match's game just finished, on the board until the visitor moves on (a friend's
  // match: the first of the view's friend.held)
  confirm: null, // a question asked before a game is ended: {text, yes, action}
};

// What other modules of the page draw after every render (the code of the day, a friend's match):
// each is called with the game as the server answered it last.
export const drawHooks = [];

export function game() {
  const v = state.view;
  if (!v) return null;
  if (state.held) return state.held.game;
  return v.mode === "match" ? v.game : v;
}

// What the visitor enters now: "code" (a guess), "secret" (a match's code), "reply", or null
// (nothing while a question waits for its answer).
export function expects() {
  return state.confirm ? null : turn();
}

// Whose turn it is, what the status line says: the same, a question asked or not.
export function turn() {
  const v = state.view;
  if (!v || state.busy || state.held) return null;
  if (v.friend && !v.friend.your_turn) return null; // a friend's match: the server says whose move
  return { guess: "code", secret: "secret", reply: "reply", fix: "reply" }[v.waiting_for] ?? null;
}

export function over() {
  const v = state.view;
  return Boolean(v && v.finished && !state.held);
}

export function say(text, tone = "") {
  state.message = text === null ? null : { text, tone };
}

export function sentence(text) {
  const t = String(text);
  return t.charAt(0).toUpperCase() + t.slice(1) + (/[.!?)]$/.test(t) ? "" : ".");
}

export function resetEntry() {
  const pegs = state.view ? state.view.rules.pegs : 4;
  state.entry = new Array(pegs).fill(null);
  state.cursor = 0;
  state.reply = { black: 0, white: 0 };
  state.selected = null;
  state.warned = null;
  state.peek = false;
}

export function palette() {
  return (state.settings && state.settings.palette) || "standard";
}

// Whether the game or match has a review: the server says, by the games package's rule (a
// finished game with a guess to value, or a finished match, game by game, both sides).
export function reviewable() {
  const v = state.view;
  return Boolean(v && v.reviewable && !state.held && !state.busy);
}
