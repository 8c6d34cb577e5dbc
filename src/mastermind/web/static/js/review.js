// The review of a finished game: each move against the best guess at its turn, as the server
// valued it (GET /api/games/{id}/review). The values, the verdicts, their thresholds and the
// sentences are the games package's; this module only draws them, a row per move as on the board.

import { api } from "./api.js";
import { codeColors, el, keys, peg } from "./board.js";
import { showSection } from "./app.js";
import { state } from "./state.js";
import { chart } from "./review-chart.js";
import { practiceKey, practicePanel } from "./review-practice.js";

const $ = (id) => document.getElementById(id);

// The review's own styles (the chart, the ghost row, the practice), beside the page's style.css.
if (!document.querySelector("link[href='/static/review.css']")) {
  document.head.append(el("link", { rel: "stylesheet", href: "/static/review.css" }));
}

// The chess marks of the verdicts, as the terminal board draws them (docs/review.md).
const MARKS = { best: "★", good: "✓", inaccuracy: "?!", mistake: "?", blunder: "??" };

const reviews = new Map(); // game id -> the server's answer: a game's review is computed once
let shown = null; // the game whose review the section shows (or is waiting for)
let back = "board-section"; // where Back returns

function palette() {
  return (state.settings && state.settings.palette) || "standard";
}

function number(value, digits = 3) {
  return value === null || value === undefined ? "–" : value.toFixed(digits);
}

function plural(n, word, words) {
  return `${n.toLocaleString("en")} ${n === 1 ? word : words || word + "s"}`;
}

function status(text, tone = "") {
  const line = $("review-status");
  line.className = "status" + (tone ? ` ${tone}` : "");
  line.textContent = text;
}

function codePegs(notation, code, extra = "") {
  return el("span", { class: "pegs" + extra, role: "img", "aria-label": code },
    codeColors(notation, code).map((c) => peg(notation, c, palette())));
}

// One move: its mark, number, guess and reply as on the board; below them the codes left, what
// the guess expected, the best guess and its value, the loss and the verdict; the games package's comment.
function moveRow(notation, pegs, m) {
  const [black, white] = m.reply.split(",").map(Number);
  const approx = m.exact ? "" : "~";
  const left = m.after === 1 && m.after_codes ? `1 code left: ${m.after_codes[0]}` :
    `${m.before.toLocaleString("en")} → ${plural(m.after, "code")} left`;
  const facts = [
    el("span", { text: left }),
    el("span", { text: `expected ${approx}${number(m.expected)}` }),
    el("span", { class: "review-best" }, "best ", codePegs(notation, m.best, " small"),
      ` ${m.best} ${approx}${number(m.best_expected)}`),
    el("span", { text: `loss ${number(m.loss)}` }),
    el("span", { class: "verdict", text: m.verdict + (m.exact ? "" : " (estimated)") }),
  ];
  const ghost = m.best === m.guess ? null : ghostRow(notation, m);
  const listed = m.after > 1 && m.after_codes ? el("p", { class: "review-codes",
    text: `Left: ${m.after_codes.join(" ")}` }) : null;
  // the games package's sentence where it says the move has more to say than its values (noteworthy)
  const comment = m.noteworthy ? el("p", { class: "review-comment", text: m.comment }) : null;
  return el("li", { class: `review-row verdict-${m.verdict}`, id: `review-${m.number}`,
    "aria-label": `Guess ${m.number}: ${m.verdict}` },
  el("span", { class: "mark", role: "img", "aria-label": m.verdict, text: MARKS[m.verdict] ?? "" }),
  el("span", { class: "row-number", text: String(m.number), "aria-hidden": "true" }),
  codePegs(notation, m.guess),
  keys(notation.terms, pegs, { black, white }),
  el("p", { class: "review-facts" }, facts),
  ghost, listed, comment);
}

// The ghost row: the best guess drawn beside the player's, with how each split the codes possible.
function ghostRow(notation, m) {
  const split = (parts, largest, mean) =>
    `${plural(parts, "class", "classes")}, at most ${largest.toLocaleString("en")}, ${mean.toFixed(1)} left on average`;
  return el("div", { class: "ghost-row", "aria-label": `The best guess, ${m.best}` },
    el("span", { class: "mark", "aria-hidden": "true", text: "☆" }),
    codePegs(notation, m.best, " ghost"),
    el("p", { class: "ghost-split" },
      el("span", { text: `best ${m.best}: ${split(m.best_parts, m.best_largest, m.best_mean_left)}` }),
      el("span", { text: `yours ${m.guess}: ${split(m.parts, m.largest, m.mean_left)}` })));
}

// Open move ``number``: scrolled to, marked and focused (a tap on the chart's point).
function openMove(number) {
  for (const row of document.querySelectorAll("#review-moves .review-row.open")) row.classList.remove("open");
  const row = $(`review-${number}`);
  if (!row) return;
  row.classList.add("open");
  row.setAttribute("tabindex", "-1");
  row.scrollIntoView({ block: "nearest" });
  row.focus({ preventScroll: true });
}

// Accuracy and luck, out of 100, and the line to share (the games package's figures and words).
function scores(review) {
  const s = review.summary;
  const figure = (name, value, words) => el("div", { class: "review-score", id: `review-${name}` },
    el("span", { class: "score-value", text: value === null ? "–" : String(Math.round(value)) }),
    el("span", { class: "score-name", text: words }));
  const share = el("p", { class: "review-share" }, el("span", { id: "review-share-line", text: s.share }),
    el("button", { type: "button", class: "control", id: "review-share", text: "Copy",
      on: { click: () => copy(s.share) } }));
  return el("div", { id: "review-scores", class: "review-scores" },
    figure("accuracy", s.accuracy, "accuracy"), figure("luck", s.luck, "luck (50: average)"), share);
}

async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
    status("The line to share is copied.");
  } catch {
    const range = document.createRange();
    range.selectNodeContents($("review-share-line"));
    getSelection().removeAllRanges();
    getSelection().addRange(range);
    status("Select and copy the line to share.");
  }
}

// What the review adds above the moves and below the summary, drawn once per review shown.
function extras(answer) {
  for (const id of ["review-scores", "review-chart", "review-practice"]) $(id)?.remove();
  const review = answer.review;
  const figure = chart(review.chart, MARKS, openMove);
  $("review-moves").before(scores(review), ...(figure ? [figure] : []));
  if (!answer.practisable) return; // the server's word (the engine's rule): a match's games are not practised
  const practice = el("div", { id: "review-practice", class: "review-practice" },
    practicePanel(answer.id, review, answer.notation, palette()));
  $("review-summary").after(practice);
}

function legend(review) {
  const bounds = review.verdicts; // the games package's thresholds: {good: 0.1, inaccuracy: 0.3, mistake: 0.6}
  const parts = [["best", "no loss"], ["good", `loss under ${bounds.good}`],
    ["inaccuracy", `under ${bounds.inaccuracy}`], ["mistake", `under ${bounds.mistake}`],
    ["blunder", "more, or a code no longer found in time"]];
  return el("p", { class: "review-legend" },
    parts.map(([v, words], i) => el("span", {}, el("span", { class: `mark verdict-${v}`, "aria-hidden": "true",
      text: MARKS[v] }), ` ${v} (${words})${i < parts.length - 1 ? " · " : ""}`)));
}

function draw(answer, at = 0) {
  if (answer.match) return drawMatch(answer, at);
  $("review-games")?.remove();
  drawGame(answer, `Game ${answer.id}`, []);
}

// One game's review; ``title`` names it, ``more`` are lines after its summary (a match's players).
function drawGame(answer, title, more) {
  const review = answer.review;
  const notation = answer.notation;
  const pegs = review.rules.pegs;
  $("review-section").removeAttribute("aria-busy");
  const outcome = { won: "won", lost: "lost", "gave-up": "given up" }[review.summary.outcome] ?? "not won";
  status(`${title}: ${outcome}${review.secret ? `, the code ${review.secret}` : ""}. Each guess ` +
    "against the best guess at its turn (expected guesses from that move on).");
  $("review-moves").replaceChildren(...review.moves.map((m) => moveRow(notation, pegs, m)));
  $("review-summary").replaceChildren(...review.summary_lines.map((line) => el("p", { text: line })),
    ...more.map((line) => el("p", { class: "review-player", text: line })), legend(review));
  extras(answer);
}

// A match: a button per game (who broke the code), the chosen game's review, each player's line.
function drawMatch(answer, at) {
  const match = answer.match;
  if (!match.games.length) {
    $("review-section").removeAttribute("aria-busy");
    return status("No game of this match was finished.");
  }
  const games = el("nav", { id: "review-games", class: "review-games", "aria-label": "The match's games" },
    match.games.map((g, i) => el("button", { type: "button", class: "control" + (i === at ? " primary" : ""),
      "aria-pressed": String(i === at), text: `Game ${g.number}: ${match.players[g.breaker - 1].name} breaks`,
      on: { click: () => draw(answer, i) } })));
  $("review-games")?.remove();
  $("review-status").after(games);
  const g = match.games[at];
  const name = match.players[g.breaker - 1].name;
  drawGame({ id: answer.id, review: g.review, notation: answer.notation, match: true, practisable: answer.practisable },
    `Match ${answer.id}, game ${g.number}, player ${g.breaker} (${name}) breaking`, match.summary_lines);
}

// Open the review of game ``id`` (from the board or the history: ``from`` is where Back returns).
// The first review of a position may take seconds: the section says it is working, and every
// other part of the page goes on answering meanwhile (the request is not the board's).
export async function showReview(id, from = "board-section") {
  back = from;
  shown = id;
  showSection("review-section");
  $("review-title").textContent = `Review of game ${id}`;
  $("review-title").focus();
  if (reviews.has(id)) return draw(reviews.get(id));
  for (const old of ["review-games", "review-scores", "review-chart", "review-practice"]) $(old)?.remove();
  $("review-moves").replaceChildren();
  $("review-summary").replaceChildren();
  $("review-section").setAttribute("aria-busy", "true");
  status("Reviewing the game against the optimum…", "working");
  let answer;
  try {
    answer = await api("GET", `/api/games/${id}/review`);
  } catch (err) {
    if (shown === id) {
      $("review-section").removeAttribute("aria-busy");
      status(`No review: ${err.message}.`, "error");
    }
    return;
  }
  reviews.set(id, answer);
  if (shown === id && !$("review-section").hidden) draw(answer);
}

export function leaveReview() {
  shown = null;
  showSection(back);
}

export function reviewKey(e) {
  if (!e.ctrlKey && !e.altKey && !e.metaKey && practiceKey(e)) return;
  if (e.key === "Escape" && !e.ctrlKey && !e.altKey && !e.metaKey) {
    e.preventDefault();
    leaveReview();
  }
}
