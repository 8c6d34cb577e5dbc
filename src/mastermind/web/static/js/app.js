// The page: it reads taps and keys, calls the API and draws what the server answers. No rule of
// play is decided here: whose turn it is, what a reply means, a contradiction and its corrections,
// a match's score, all come from the server (the games package).

// This module: the talk with the server (a request, a new game, a game opened), the sections and the
// start; state.js holds the page's state, moves.js the moves, draw.js the drawing.

import { api } from "./api.js";
import { answerConfirm, holdRound } from "./ending.js";
import { render } from "./draw.js";
import { addKey, chooseRow, erase, giveUp, hint, leaveGame, onKey, submit, undo } from "./moves.js";
import { showHistory, showSettings, showStats } from "./pages.js";
import { leaveReview, showReview } from "./review.js";
import { $, game, resetEntry, reviewable, say, sentence, state } from "./state.js";

// Milliseconds between two computer moves of a match, so that each guess is seen.
const PACE = 700;

// The keyboard works as soon as the page loads: the listener is on the document, not a widget.
document.addEventListener("keydown", onKey);

// -- talking to the server ------------------------------------------------------------------------

async function request(method, path, body) {
  if (state.busy) return null;
  state.busy = true;
  render();
  try {
    const answer = await api(method, path, body);
    return answer;
  } catch (err) {
    if (err.game) show(err.game);  // the move was not kept: the game as the history holds it
    say(sentence(err.message), "error");
    return null;
  } finally {
    state.busy = false;
  }
}

// Where a view stands: its game, whose turn and how many rows (an answer that leaves all three,
// as a hint does, keeps what the player has entered).
function place(v) {
  if (!v) return null;
  const g = v.mode === "match" ? v.game : v;
  return `${v.id}/${v.waiting_for}/${g ? g.moves.length : -1}/${g ? g.pending : ""}`;
}

export function show(view) {
  const same = !state.held && place(state.view) === place(view);
  state.view = view;
  state.confirm = null;
  // a friend's match: the finished game this player has still to see is the server's to say, in
  // every view (the one pushed for the move that ended it, a page loaded again): it is held here
  if (view.friend) state.held = view.friend.held[0] ?? null;
  if (!same) resetEntry();
  const g = game();
  if (g && g.problem) chooseRow(g.problem.rows[g.problem.rows.length - 1]);
  render();
  schedule();
}

export async function act(path, body) {
  const answer = await request("POST", `/api/games/${state.view.id}/${path}`, body);
  if (answer) {
    say(null);
    took(answer.events || []);
    show(answer);
  } else {
    render();
  }
  return answer;
}

// A move's events, this device's or (pushed) the friend's: their lines in the log, and a game that
// has just finished held on the board (in a friend's match the view says which: see show). The
// match goes on meanwhile; what the friend does is shown once this player moves on.
export function took(events) {
  for (const line of eventLines(events)) state.log.push(line);
  if (!state.view?.friend) holdRound(events);
}

export async function newGame(body = {}) {
  clearTimeout(state.timer);
  await discardDraft();
  const answer = await request("POST", "/api/games", body);
  if (answer) {
    state.log = [];
    state.held = null;
    say(null);
    // the button that asked for the game gives the focus back: Enter then plays, not another game
    if (document.activeElement instanceof HTMLButtonElement) document.activeElement.blur();
    state.view = null; // (a new game may take a forgotten draft's number: nothing entered is kept)
    show(answer);
    showSection("board-section");
  } else {
    render();
  }
}

export async function openGame(id) {
  if (state.view && state.view.id !== id) await discardDraft();
  const answer = await request("GET", `/api/games/${id}`);
  if (answer) {
    state.log = [];
    state.held = null;
    say(null);
    show(answer);
    showSection("board-section");
  }
}

// A game the visitor leaves before its first move is not kept: the server forgets it now, so
// that their next game takes its number.
async function discardDraft() {
  const v = state.view;
  if (!v || v.kept !== false || v.finished) return;
  state.view = null;
  try {
    await api("DELETE", `/api/games/${v.id}`);
  } catch (err) {
    // already forgotten (idle too long): nothing to do
  }
}

export async function nextGame() {
  if (state.view.friend) {  // told to the server: every device of this player moves on, and a reload
    const answer = await act("next", { game: state.held.round });
    if (answer && !answer.friend) {  // the match read back from the history: no seats, nothing held
      state.held = null;
      render();
    }
    return;
  }
  state.held = null;
  say(null);
  render();
  schedule();
}

// A match's computer moves, one request each, a pace apart: every guess is seen.
function schedule() {
  clearTimeout(state.timer);
  const v = state.view;
  if (v && v.mode === "match" && v.waiting_for === "computer" && !state.held) {
    state.timer = setTimeout(() => act("advance"), PACE);
  }
}

// A match's events in the log: each in the server's words (the games package's; in a friend's
// match, said to this player); an event the board shows (a move) has none.
function eventLines(events) {
  return state.view ? events.map((e) => e.text).filter(Boolean) : [];
}

// The look the visitor chose: the system's (light or dark, as it asks), light, dark or high contrast.
export function applyTheme(theme) {
  document.documentElement.dataset.theme = theme || "system";
}

// -- sections and start ---------------------------------------------------------------------------

export function showSection(id) {
  for (const section of document.querySelectorAll("main > section")) section.hidden = section.id !== id;
  // A control of a section just hidden (the settings' Start) keeps the focus until the browser's
  // next rendering step, and keys typed meanwhile would go to its form, not to the board.
  const active = document.activeElement;
  if (active instanceof HTMLElement && active.closest("main > section[hidden]")) active.blur();
  for (const tab of document.querySelectorAll(".tab")) {
    if (tab.dataset.section === id) tab.setAttribute("aria-current", "page");
    else tab.removeAttribute("aria-current");
  }
  if (id === "history-section") showHistory();
  if (id === "stats-section") showStats();
  if (id === "settings-section") showSettings();
}

export function setSettings(settings, choices) {
  state.settings = settings;
  applyTheme(settings.theme);
  if (choices) state.choices = choices;
  render();
}

function wire() {
  for (const tab of document.querySelectorAll(".tab")) {
    tab.addEventListener("click", () => showSection(tab.dataset.section));
  }
  $("submit").addEventListener("click", submit);
  $("erase").addEventListener("click", erase);
  $("undo").addEventListener("click", undo);
  $("hint").addEventListener("click", hint);
  $("give-up").addEventListener("click", giveUp);
  $("review").addEventListener("click", () => reviewable() && showReview(state.view.id));
  $("review-back").addEventListener("click", leaveReview);
  $("review-new").addEventListener("click", () => newGame());
  $("new-game").addEventListener("click", leaveGame);
  $("confirm-yes").addEventListener("click", () => answerConfirm(true));
  $("confirm-no").addEventListener("click", () => answerConfirm(false));
  $("peek").addEventListener("click", () => { state.peek = !state.peek; render(); });
  $("by-hand").addEventListener("click", () => act("secret", { secret: null }));
  $("black-plus").addEventListener("click", () => addKey("black"));
  $("white-plus").addEventListener("click", () => addKey("white"));
  $("black-minus").addEventListener("click", () => addKey("black", -1));
  $("white-minus").addEventListener("click", () => addKey("white", -1));
}

async function start() {
  wire();
  try {
    const { settings, choices } = await api("GET", "/api/settings");
    state.settings = settings;
    state.choices = choices;
    applyTheme(settings.theme);
    const { games } = await api("GET", "/api/games");
    const resume = games.find((g) => g.mode === settings.mode);
    if (resume) await openGame(resume.id);
    else await newGame();
  } catch (err) {
    $("message").textContent = sentence(err.message);
  }
  document.body.dataset.ready = "true";
}

start();
