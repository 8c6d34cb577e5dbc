// The drawing: the board's rows, the code's row, the score, the status and message lines, the
// palette or the key pegs' counts, and the buttons, all from the game as the server answered it.

import { codeColors, colorName, countText, el, keys, peg, plural, replyWords } from "./board.js";
import { drawConfirm, drawMoment } from "./ending.js";
import { applyCorrection, chooseRow, put } from "./moves.js";
import { $, drawHooks, expects, game, over, palette, reviewable, sentence, state, turn } from "./state.js";

// Rows drawn from the start; past them (a generous guess limit) rows are added as they are reached.
const BOARD_ROWS = 12;

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
  const hard = v.hard ? " · hard mode" : ""; // (every guess must be a code that could still be the secret)
  $("title").textContent = `${modeWords(v)} · ${rulesWords(v.rules, n)}${hard}`;
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

// What a match or a first visit adds around the board on a phone (the score, a status of two
// lines, a friend's panel, the offer of a lesson), measured: the rows make room for it (--above),
// so that every row, the palette and Guess stay on the screen. The row of Give up and New game
// under them may go below the fold while a friend's panel or a lesson shows (it is not what the
// player taps next): its height is given back to the rows first, so that the pegs stay as large
// as a single game's where they can.
// What still overflows then (margins, the key pegs' own sizes) is taken from the rows too.
function fitAbove() {
  const root = document.documentElement;
  const h = (id) => ($(id) && !$(id).hidden ? $(id).getBoundingClientRect().height : 0);
  const board = $("board");
  const under = board.getBoundingClientRect().bottom <= document.querySelector(".side").getBoundingClientRect().top;
  if (!under || board.classList.contains("long")) {
    root.style.setProperty("--above", "0px");
    return;
  }
  const gap = (id) => h(id) && h(id) + 6;
  const extras = h("score") + Math.max(0, h("status") - 24) + gap("friend-panel") + gap("tutorial-offer") +
    gap("tutorial");
  if (!extras) {
    root.style.setProperty("--above", "0px");
    return;
  }
  // only a friend's panel or a lesson sends that row below the fold: a status of two lines alone
  // (a won game's, say) is taken from the rows, and the page still fits the screen whole
  const ending = document.querySelector("#board-section .controls.ending");
  const optional = h("friend-panel") || h("tutorial-offer") || h("tutorial");
  const spare = ending && optional ? ending.getBoundingClientRect().height + 6 : 0;
  let room = Math.round(Math.max(0, extras - spare));
  root.style.setProperty("--above", `${room}px`);
  // what must be seen while a code or a reply is entered: the row of Guess (or Reply) under the
  // palette; once the game is over, or while the friend moves, the rows keep their size
  const play = $("submit").closest(".controls");
  const entering = !$("palette").hidden || !$("reply-entry").hidden;
  const bottom = () => play.getBoundingClientRect().bottom + scrollY;
  for (let i = 0; entering && play && i < 3 && bottom() > innerHeight + 0.5; i++) {
    room += Math.ceil(bottom() - innerHeight);
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
  // a finished game held on the board: its line, the server's (in a friend's match, said to this player)
  if (state.held) return state.held.text;
  if (state.busy && v.waiting_for === "computer") return "Thinking…";
  if (v.mode === "match" && v.finished) return v.ending.join(" ");  // the server's words, said to this player
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

// A game not won: its closing words, the server's (a win has its moment).
function endMessage(v, g) {
  if (v.mode === "match" || !g.finished || g.outcome === "won" || !v.ending?.length) return null;
  return { text: v.ending.join(" "), tone: "lost" };
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
    state.held ? (v.finished && !heldAfter(v) ? "See the result" : "Next game") : "New game";
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

// Whether a friend's match holds another finished game after the one on the board (finished
// while this player had not moved on): each is shown in its turn.
function heldAfter(v) {
  return Boolean(v.friend && v.friend.held.length > 1);
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

