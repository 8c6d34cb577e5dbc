// The page: it reads taps and keys, calls the API and draws what the server answers. No rule of
// play is decided here: whose turn it is, what a reply means, a contradiction and its corrections,
// a match's score, all come from the server (the games package).

import { api } from "./api.js";
import { codeColors, colorName, countText, el, keys, peg, plural, replyWords } from "./board.js";
import { answerConfirm, ask, drawConfirm, drawMoment, heldText, holdRound } from "./ending.js";
import { showHistory, showSettings, showStats } from "./pages.js";
import { leaveReview, reviewKey, showReview } from "./review.js";

const $ = (id) => document.getElementById(id);

// Milliseconds between two computer moves of a match, so that each guess is seen.
const PACE = 700;
// Rows drawn from the start; past them (a generous guess limit) rows are added as they are reached.
const BOARD_ROWS = 12;

export const state = {
  view: null, // the game as the server answered it last
  entry: [], // the code being entered: colour numbers, null for an empty hole
  cursor: 0,
  reply: { black: 0, white: 0 }, // the reply being entered
  selected: null, // a played row chosen to fix (1-based); null: the waiting guess
  busy: false,
  message: null, // {text | node, tone}
  peek: false, // whether the code a person chooses in a match is shown (masked otherwise)
  warned: null, // a repeated guess, pointed out once
  settings: null,
  choices: null,
  log: [],
  timer: null,
  held: null, // a match's game just finished, on the board until the visitor moves on
  confirm: null, // a question asked before a game is ended: {text, yes, action}
};

// What other modules of the page draw after every render (the code of the day, a friend's match):
// each is called with the game as the server answered it last.
export const drawHooks = [];

// The keyboard works as soon as the page loads: the listener is on the document, not a widget.
document.addEventListener("keydown", onKey);

function game() {
  const v = state.view;
  if (!v) return null;
  if (state.held) return state.held.game;
  return v.mode === "match" ? v.game : v;
}

// What the visitor enters now: "code" (a guess), "secret" (a match's code), "reply", or null
// (nothing while a question waits for its answer).
function expects() {
  return state.confirm ? null : turn();
}

// Whose turn it is, what the status line says: the same, a question asked or not.
function turn() {
  const v = state.view;
  if (!v || state.busy || state.held) return null;
  if (v.friend && !v.friend.your_turn) return null; // a friend's match: the server says whose move
  return { guess: "code", secret: "secret", reply: "reply", fix: "reply" }[v.waiting_for] ?? null;
}

function over() {
  const v = state.view;
  return Boolean(v && v.finished && !state.held);
}

function say(text, tone = "") {
  state.message = text === null ? null : { text, tone };
}

function sentence(text) {
  const t = String(text);
  return t.charAt(0).toUpperCase() + t.slice(1) + (/[.!?)]$/.test(t) ? "" : ".");
}

function resetEntry() {
  const pegs = state.view ? state.view.rules.pegs : 4;
  state.entry = new Array(pegs).fill(null);
  state.cursor = 0;
  state.reply = { black: 0, white: 0 };
  state.selected = null;
  state.warned = null;
  state.peek = false;
}

// -- talking to the server ------------------------------------------------------------------------

async function request(method, path, body) {
  if (state.busy) return null;
  state.busy = true;
  render();
  try {
    const answer = await api(method, path, body);
    return answer;
  } catch (err) {
    say(sentence(err.message), "error");
    return null;
  } finally {
    state.busy = false;
  }
}

export function show(view) {
  state.view = view;
  state.confirm = null;
  resetEntry();
  const g = game();
  if (g && g.problem) chooseRow(g.problem.rows[g.problem.rows.length - 1]);
  render();
  schedule();
}

async function act(path, body) {
  const answer = await request("POST", `/api/games/${state.view.id}/${path}`, body);
  if (answer) {
    say(null);
    for (const line of eventLines(answer.events || [])) state.log.push(line);
    // a friend's match is not held on one device: the friend would wait on this one's tap
    if (!answer.friend) holdRound(answer.events || []);
    show(answer);
  } else {
    render();
  }
  return answer;
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

function nextGame() {
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

function eventLines(events) {
  const v = state.view;
  const lines = [];
  for (const e of events) {
    if (e.kind === "replayed") {
      lines.push(`Game ${e.round}: the replies contradict each other; it is played again and ` +
        `player ${e.penalty.player} gets ${e.penalty.points} points.`);
    } else if (e.kind === "round-over") {
      const how = e.outcome === "won" ? `broken in ${plural(e.guesses, "guess", "guesses")}` :
        e.outcome === "gave-up" ? "given up" : "not broken";
      lines.push(`Game ${e.round}: ${e.secret ?? "the code"} ${how}; points ${e.points.join("-")}.`);
    } else if (e.kind === "match-over") {
      lines.push("The match is over.");
    } else if (e.kind === "undone") {
      lines.push(`Guess ${e.row} taken back (it had no reply yet).`);
    }
  }
  return v ? lines : [];
}

// -- the moves ------------------------------------------------------------------------------------

function codeText(colors) {
  const n = state.view.notation;
  return colors.map((c) => n.colors[c].symbol).join("");
}

async function submit() {
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
  const g = game();
  const row = g.moves.findIndex((m) => m.guess === code) + 1;
  if (row && state.warned !== code) {
    state.warned = code;
    say(`You played ${code} already (row ${row}): Enter again to play it anyway.`, "warn");
    render();
    return;
  }
  await act("guesses", { guess: code });
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

async function applyCorrection(number) {
  const g = game();
  if (!g || !g.problem || state.view.mode === "match") return;
  const fix = g.problem.corrections[number - 1];
  if (!fix) return;
  const answer = await act("fixes", { row: fix.row, reply: fix.reply });
  if (answer) say(`Row ${fix.row} is now ${fix.words}.`);
  render();
}

async function undo() {
  if (!state.view || state.busy) return;
  await act("undo");
  if (state.message === null) say("Took back the last row.");
  render();
}

async function hint() {
  if (expects() !== "code") return;
  const answer = await act("hint");
  if (!answer) return;
  const h = answer.hint;
  const n = answer.notation;
  const left = h.candidates === null ? "" : `${plural(h.candidates, "code")} still possible; `;
  const pegs = el("span", { class: "pegs", role: "img", "aria-label": h.guess },
    codeColors(n, h.guess).map((c) => peg(n, c, palette())));
  const note = h.note ? ` (${h.note})` : "";
  state.message = { node: el("span", {}, `Hint: ${left}${h.lead} `, pegs, ` (${h.guess})${note}.`) };
  render();
}

function giveUp() {
  if (!state.view || over() || state.busy || state.held) return;
  const secret = state.view.mode === "match" ? "this game of the match" : "this game";
  ask(`Give up ${secret}? The code is shown and the game counts as given up.`, "Give up", () => act("give-up"));
}

function leaveGame() {
  const g = game();
  if (state.busy) return;
  if (!g || over() || state.held || (g.moves.length === 0 && state.view.mode !== "match")) return newGame();
  ask("Start a new game? This one stays unfinished in your history, to resume later.", "New game",
    () => newGame());
}

function put(color) {
  state.entry[state.cursor] = color;
  state.cursor = Math.min(state.cursor + 1, state.entry.length - 1);
  say(null);
  render();
}

function erase() {
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

function addKey(kind, step = 1) {
  if (expects() !== "reply") return;
  const r = state.reply;
  const next = r[kind] + step;
  if (next < 0 || (step > 0 && r.black + r.white >= state.view.rules.pegs)) return;
  r[kind] = next;
  render();
}

function chooseRow(row) {
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

function onKey(e) {
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

// -- drawing --------------------------------------------------------------------------------------

function palette() {
  return (state.settings && state.settings.palette) || "standard";
}

function modeWords(v) {
  return { break: "You break the computer's code", solve: `${v.strategy} breaks your code`,
    match: `Match: ${v.players ? v.players.join(" against ") : ""}` }[v.mode];
}

function rulesWords(rules, notation) {
  const real = rules.colors - (rules.blank ? 1 : 0);
  const t = notation.terms;
  const what = t.place === t.symbol ? `${plural(rules.pegs, t.place)} of ${real}` :
    `${plural(rules.pegs, t.place)}, ${plural(real, t.symbol)}`;
  return `${what}${rules.blank ? " and the blank" : ""}${rules.repeats ? "" : ", no repeats"}, ` +
    `${plural(rules.max_guesses, "guess", "guesses")}`;
}

function rowLabel(n, number, colors, reply) {
  const pegs = colors.length ? colors.map((c) => colorName(n, c)).join(", ") : "empty";
  const r = reply ? replyWords(n.terms, reply.black, reply.white) : "no reply";
  return `Row ${number}: ${pegs}; ${r}`;
}

export function render() {
  const v = state.view;
  document.body.classList.toggle("busy", state.busy);
  if (!v) return;
  // the pegs are drawn again on every change: the one that had the keyboard's focus gets it back
  const focused = document.activeElement?.dataset?.focus;
  const n = v.notation;
  const g = game();
  const x = expects();
  const pegs = v.rules.pegs;
  document.documentElement.style.setProperty("--pegs", String(pegs));
  $("title").textContent = `${modeWords(v)} · ${rulesWords(v.rules, n)}`;
  drawScore(v);
  drawBoard(v, g, n, x);
  drawSecret(v, g, n, x);
  drawSide(v, g, n, x);
  drawMoment(v, g, n, palette(), reviewable());
  drawConfirm();
  for (const draw of drawHooks) draw(v);
  fitAbove();
  if (focused) document.querySelector(`[data-focus="${focused}"]`)?.focus();
}

// What a match adds around the board on a phone (the score, a status of two lines, a friend's
// panel), measured: the rows make room for it (--above), so that Guess stays on the screen; what
// still overflows then (margins, the key pegs' own sizes) is taken from the rows too.
function fitAbove() {
  const root = document.documentElement;
  const h = (id) => ($(id) && !$(id).hidden ? $(id).getBoundingClientRect().height : 0);
  const board = $("board");
  const under = board.getBoundingClientRect().bottom <= document.querySelector(".side").getBoundingClientRect().top;
  if (!under || board.classList.contains("long")) {
    root.style.setProperty("--above", "0px");
    return;
  }
  const above = h("score") + Math.max(0, h("status") - 24) + (h("friend-panel") && h("friend-panel") + 6);
  let room = Math.round(above);
  root.style.setProperty("--above", `${room}px`);
  for (let i = 0; above && i < 3 && root.scrollHeight > innerHeight; i++) {
    room += root.scrollHeight - innerHeight;
    root.style.setProperty("--above", `${room}px`);
  }
}

function drawScore(v) {
  const score = $("score");
  score.hidden = v.mode !== "match";
  if (v.mode !== "match") return;
  const r = v.round;
  // while a finished game is held on the board, the status line speaks of it, not of the next
  // (in a friend's match, the friend's panel says who makes the code: the line stays short)
  const roles = v.friend ? "" : `: player ${r.maker} makes the code, player ${r.breaker} breaks it; ${v.scoring} scoring.`;
  const round = state.held || v.finished ? null : el("span", { text: `Game ${r.number} of ${v.games}${roles}` });
  score.replaceChildren(
    ...v.players.map((p, i) => el("span", { class: "player", text: `Player ${i + 1} (${p}): ${v.score[i]}` })),
    ...(round ? [round] : []),
  );
}

function drawBoard(v, g, n, x) {
  const board = $("board");
  const turn = g ? g.turn : 1;
  const rows = Math.min(v.rules.max_guesses, Math.max(BOARD_ROWS, turn));
  // every row fits the screen up to BOARD_ROWS of them (the pegs' size follows); past that the
  // board scrolls
  document.documentElement.style.setProperty("--rows", String(Math.min(rows, BOARD_ROWS)));
  board.classList.toggle("long", rows > BOARD_ROWS);
  const winning = g && g.won ? g.moves.length : null;
  const problemRows = new Set(g && g.problem ? g.problem.rows : []);
  const items = [];
  let current = null;
  for (let row = 1; row <= rows; row++) {
    const move = g ? g.moves[row - 1] : undefined;
    let colors = [];
    let reply = null;
    let entry = false;
    const isCurrent = g && !g.finished && row === turn && (x === "code" || g.pending !== null);
    if (move) {
      colors = codeColors(n, move.guess);
      reply = state.selected === row ? state.reply : move;
    } else if (isCurrent && x === "code") {
      colors = state.entry;
      entry = true;
    } else if (isCurrent && g.pending !== null) {
      colors = codeColors(n, g.pending);
      reply = x === "reply" && state.selected === null ? state.reply : null;
    }
    const fixable = x === "reply" && v.mode !== "match" && (move || (isCurrent && g.pending !== null));
    const cells = [];
    for (let i = 0; i < pegs(v); i++) {
      const color = colors[i] ?? null;
      if (entry) {
        cells.push(peg(n, color, palette(), { tag: "button", cursor: i === state.cursor,
          on: { click: (ev) => { ev.stopPropagation(); state.cursor = i; render(); } } }));
        cells[i].setAttribute("aria-label", `Hole ${i + 1}: ${colorName(n, color)}`);
        cells[i].dataset.focus = `hole-${i}`;
      } else {
        cells.push(peg(n, colors.length ? color : null, palette()));
      }
    }
    const li = el("li", {
      class: "row" + (isCurrent ? " current" : "") + (state.selected === row ? " selected" : "") +
        (problemRows.has(row) ? " problem" : "") + (fixable ? " fixable" : "") +
        (row === winning ? " winning" : ""),
      id: `row-${row}`,
      "aria-current": isCurrent ? "step" : null,
      on: fixable ? { click: () => chooseRow(move ? row : null) } : undefined,
    },
    el("span", { class: "row-number", text: String(row), "aria-hidden": "true" }),
    el("span", { class: "pegs", role: entry ? "group" : "img",
      "aria-label": rowLabel(n, row, colors.filter((c) => c !== null), move || reply ? reply : null) }, cells),
    keys(n.terms, pegs(v), reply));
    if (isCurrent || state.selected === row) current = li;
    items.push(li);
  }
  board.replaceChildren(...items);
  if (current) {  // the row being played in view, by scrolling the board alone (never the page)
    const top = current.offsetTop;
    const bottom = top + current.offsetHeight;
    if (top < board.scrollTop || bottom > board.scrollTop + board.clientHeight) {
      board.scrollTop = Math.max(0, top - (board.clientHeight - current.offsetHeight) / 2);
    }
  }
}

function pegs(v) {
  return v.rules.pegs;
}

function drawSecret(v, g, n, x) {
  const box = $("secret-row");
  const cells = [];
  let label = "Code";
  if (x === "secret") {
    for (let i = 0; i < pegs(v); i++) {
      const c = state.entry[i];
      const masked = !state.peek && c !== null;
      const cell = peg(n, c, palette(), { tag: "button", masked, cursor: i === state.cursor,
        on: { click: () => { state.cursor = i; render(); } } });
      cell.setAttribute("aria-label", `Hole ${i + 1} of the code: ${masked ? "hidden" : colorName(n, c)}`);
      cell.dataset.focus = `secret-${i}`;
      cells.push(cell);
    }
    label = "Your code";
  } else if (g && g.finished && g.secret) {
    codeColors(n, g.secret).forEach((c) => cells.push(peg(n, c, palette())));
    label = "The code was";
  } else if (g && g.won) {
    codeColors(n, g.moves[g.moves.length - 1].guess).forEach((c) => cells.push(peg(n, c, palette())));
    label = "Your code";
  } else {
    for (let i = 0; i < pegs(v); i++) {
      const cell = peg(n, null, palette());
      cell.textContent = "?";
      cells.push(cell);
    }
    label = v.mode === "solve" ? "Your code (in your head)" : "The code (hidden)";
  }
  box.replaceChildren(el("span", { text: label }),
    el("span", { class: "pegs", role: x === "secret" ? "group" : "img", "aria-label": label }, cells));
}

function statusText(v, g, x) {
  if (state.held) return heldText(v, state.held);
  if (state.busy && v.waiting_for === "computer") return "Thinking…";
  if (v.mode === "match" && v.finished) {
    const w = v.winner;
    return `The match is over: ${w === null ? "a draw" : `player ${w} wins`} (${v.score.join("-")}).`;
  }
  if (v.mode === "match" && v.waiting_for === "computer") {
    const r = v.round;
    return g ? `${v.players[r.breaker - 1]} is guessing…` : `${v.players[r.maker - 1]} chooses a code…`;
  }
  if (x === "secret") {
    const r = v.round;
    const away = v.players[r.breaker - 1] === "human" ? `Player ${r.breaker}, look away! ` : "";
    return `${away}Player ${r.maker}: choose the code`;
  }
  if (x === "code") return `Guess ${g.turn} of ${v.rules.max_guesses}`;
  if (x === "reply") {
    if (state.selected !== null) return `Fix the reply of row ${state.selected}`;
    if (g.pending !== null) return `Reply to guess ${g.turn}: ${g.pending}`;
    return "The replies contradict each other";
  }
  return "";
}

function endMessage(v, g) {
  if (v.mode === "match" || !g.finished || g.outcome === "won") return null;  // a win has its moment
  const n = plural(g.moves.length, "guess", "guesses");
  if (v.mode === "break") {
    const why = g.outcome === "gave-up" ? "You gave up" : "No guesses left";
    return { text: `${why}: the code was ${g.secret}.`, tone: "lost" };
  }
  return { text: `I could not find it in ${n}.`, tone: "lost" };
}

function drawSide(v, g, n, x) {
  $("status").textContent = statusText(v, g, turn());
  const message = $("message");
  const m = state.message || (g ? endMessage(v, g) : null);
  message.className = "message" + (m && m.tone ? ` ${m.tone}` : "");
  message.replaceChildren(m ? (m.node || m.text) : "");
  drawProblem(v, g, n);
  const pal = $("palette");
  pal.hidden = !(x === "code" || x === "secret");
  if (!pal.hidden) {
    pal.replaceChildren(...n.colors.map((c, i) => {
      const b = peg(n, i, palette(), { tag: "button", on: { click: () => put(i) } });
      b.setAttribute("aria-label", colorName(n, i));
      b.dataset.focus = `colour-${i}`;
      return b;
    }));
  }
  const replying = x === "reply";
  $("reply-entry").hidden = !replying;
  if (replying) {
    $("black-label").textContent = sentence(n.terms.black + "s").replace(/\.$/, "");
    $("white-label").textContent = sentence(n.terms.white + "s").replace(/\.$/, "");
    $("black-count").value = String(state.reply.black);
    $("white-count").value = String(state.reply.white);
    const full = state.reply.black + state.reply.white >= v.rules.pegs;
    $("black-plus").disabled = full;
    $("white-plus").disabled = full;
    $("black-minus").disabled = state.reply.black === 0;
    $("white-minus").disabled = state.reply.white === 0;
  }
  const submit = $("submit");
  submit.textContent = x === "code" ? "Guess" : x === "secret" ? "Set the code" :
    x === "reply" ? (state.selected !== null ? `Fix row ${state.selected}` :
      `Reply ${countText(n.terms, state.reply.black, state.reply.white)}`) :
    state.held ? (v.finished ? "See the result" : "Next game") : "New game";
  submit.hidden = (x === null && !over() && !state.held) || state.confirm !== null;
  submit.disabled = state.busy;
  $("erase").hidden = x === null;
  $("hint").hidden = v.mode === "solve" || state.held !== null;
  $("hint").disabled = x !== "code";
  $("undo").disabled = over() || state.busy || state.held !== null;
  $("give-up").hidden = v.mode === "solve" || over() || state.held !== null;
  $("give-up").disabled = x !== "code";
  $("peek").hidden = x !== "secret";
  $("peek").textContent = state.peek ? "Hide" : "Show";
  $("by-hand").hidden = x !== "secret";
  $("new-game").hidden = over();
  for (const id of ["give-up", "new-game"]) if (state.confirm) $(id).disabled = true;
  if (!state.confirm) $("new-game").disabled = false;
  $("review").hidden = !reviewable();
  const help = helpText(v, n, x);
  $("help").textContent = help.touch;
  $("keys-line").textContent = help.keys;
  $("log").replaceChildren(...state.log.slice(-6).map((line) => el("li", { text: line })));
}

function drawProblem(v, g, n) {
  const box = $("problem");
  const problem = v.mode !== "match" && g ? g.problem : null;
  box.hidden = problem === null;
  if (!problem) return;
  $("problem-text").textContent = `Rows ${problem.rows.join(", ")} cannot all be true. ` +
    "Correct one reply: tap its row and enter it, or take a correction:";
  $("corrections").replaceChildren(...problem.corrections.map((c, i) =>
    el("button", { type: "button", class: "correction", on: { click: () => applyCorrection(i + 1) },
      text: `${i < 9 ? `${i + 1}: ` : ""}row ${c.row} → ${countText(n.terms, c.black, c.white)} ` +
        `(${plural(c.candidates, "code")} left)` })));
}

// What to do now, in two parts: words for every visitor (touch), and the keys, shown only where
// there is a keyboard (the .keys-only rule of the style sheet).
function helpText(v, n, x) {
  const t = n.terms;
  if (x === "code" || x === "secret") {
    const touch = x === "code" ? "" : "With no pegs set, you reply to each guess yourself.";
    const what = x === "code" ? "guesses" : "sets the code";
    return { touch, keys: `Type ${n.describe}, or tap a ${t.symbol} · ←→ move · Backspace · Enter ${what}` };
  }
  if (x === "reply") {
    const [b, w] = t.keys.toLowerCase();
    const fix = v.mode === "match" ? "" : " Tap a row to fix its reply.";
    const black = t.black.charAt(0).toUpperCase() + t.black.slice(1);
    return { touch: `${black}: right ${t.symbol}, right place; ${t.white}: right ${t.symbol}, ` +
        `wrong place.${fix}`,
      keys: `${b}, ${w}: one more · Backspace · Enter replies${v.mode === "match" ? "" : " · ↑↓ a row to fix"}` };
  }
  if (state.held) return { touch: "", keys: "Enter: the next game" };
  const what = state.view.mode === "match" ? "match, game by game" : "game, guess by guess";
  if (reviewable()) return { touch: "", keys: `Enter: a new game · R: the review of this ${what}` };
  return { touch: "", keys: over() ? "Enter: a new game" : "" };
}

// The look the visitor chose: the system's (light or dark, as it asks), light, dark or high contrast.
export function applyTheme(theme) {
  document.documentElement.dataset.theme = theme || "system";
}

// A finished game, or a finished match (game by game, both sides), has the games package's review.
function reviewable() {
  const v = state.view;
  return Boolean(v && v.finished && !state.held && !state.busy);
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
