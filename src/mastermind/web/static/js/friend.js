// Play a friend by a link: the page's side of a match between two visitors on two devices.
// "Play a friend" makes the match (the rules of the visitor's settings, the number of games,
// scoring and guess limit chosen here) and shows the link to give, with a Copy button; the friend
// who opens it takes the other seat. Every move comes to this device at once over the match's
// WebSocket, as this device's whole view (never a log: a reconnect is where the match stands).
// Whose move it is, and what this device may see, is the server's (the games package's) answer.

import { api } from "./api.js";
import { openGame, show, took } from "./app.js";
import { render } from "./draw.js";
import { drawHooks, state } from "./state.js";
import { el } from "./board.js";

const $ = (id) => document.getElementById(id);

const line = { socket: null, id: null, retry: 0, timer: null };

// -- the line to the server -----------------------------------------------------------------------

function connect(id) {
  if (line.id === id && line.socket && line.socket.readyState <= 1) return;
  close();
  line.id = id;
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const socket = new WebSocket(`${scheme}://${location.host}/api/games/${id}/socket`);
  line.socket = socket;
  socket.onopen = () => { line.retry = 0; };
  socket.onmessage = (e) => {
    const message = JSON.parse(e.data);
    if (message.type === "view" && state.view && state.view.id === message.game.id) {
      arrived(message.game, message.events || []);
    }
  };
  socket.onclose = () => {
    if (line.socket !== socket) return;
    line.socket = null;
    // a lost line (a phone put to sleep, a network change) is opened again, a little later each time
    if (state.view && state.view.id === id && state.view.friend && !state.view.finished && !state.view.left) {
      line.timer = setTimeout(() => connect(id), Math.min(10000, 500 * 2 ** line.retry++));
    }
  };
}

function close() {
  clearTimeout(line.timer);
  if (line.socket) {
    const socket = line.socket;
    line.socket = null;
    socket.close();
  }
  line.id = null;
}

// A view pushed by the server, with the events of the friend's move that caused it (a game won
// is held on the board here too). Where only the friend's presence changed, the code being
// entered stays as it is; a move redraws the board.
function arrived(game, events) {
  const strip = (v) => JSON.stringify({ ...v, friend: { ...v.friend, here: null } });
  if (state.view && strip(state.view) === strip(game)) {
    state.view = game;
    render();
  } else {
    took(events);
    show(game);
  }
}

// A page left (closed, or another page opened in its tab, maybe kept in the browser's back-forward
// cache) closes its line: the friend is told at once that this player has left; back, it opens again.
window.addEventListener("pagehide", () => close());
window.addEventListener("pageshow", (e) => {
  const v = state.view;
  if (e.persisted && v && v.friend && !v.left) connect(v.id);
});

document.addEventListener("visibilitychange", () => {
  const v = state.view;
  if (document.visibilityState === "visible" && v && v.friend && !line.socket) connect(v.id);
});

// -- making a match, joining one ------------------------------------------------------------------

function rulesOfSettings(s, maxGuesses) {
  return { pegs: s.pegs, colors: s.colors + (s.blank ? 1 : 0), repeats: s.repeats, max_guesses: maxGuesses,
    blank: s.blank };
}

function openForm() {
  const s = state.settings;
  const c = state.choices;
  if (!s || !c) return;
  const form = $("friend-form");
  const scoring = Object.keys(c.scoring).map((k) =>
    el("option", { value: k, text: `${k}: ${c.scoring[k]}`, selected: k === s.scoring }));
  const games = [2, 4, 6, 8, 10].filter((n) => n <= c.limits.match_games)
    .map((n) => el("option", { value: String(n), text: String(n), selected: n === s.games }));
  const note = el("p", { class: "message", role: "status", "aria-live": "polite" });
  form.replaceChildren(
    el("label", {}, "Games ", el("select", { name: "games" }, ...games)),
    el("label", {}, "Scoring ", el("select", { name: "scoring" }, ...scoring)),
    el("label", {}, "Guesses allowed ",
      el("input", { type: "number", name: "max_guesses", min: "1", max: "200", value: String(s.max_guesses) })),
    note,
    el("div", { class: "controls" },
      el("button", { type: "submit", class: "control primary", text: "Make the link" }),
      el("button", { type: "button", class: "control", text: "Cancel", on: { click: () => { form.hidden = true; } } })));
  form.hidden = false;
  form.onsubmit = async (e) => {
    e.preventDefault();
    const f = new FormData(form);
    const body = { mode: "match", players: ["human", "friend"], games: Number(f.get("games")),
      scoring: f.get("scoring"), rules: rulesOfSettings(s, Number(f.get("max_guesses"))) };
    try {
      const made = await api("POST", "/api/games", body);
      form.hidden = true;
      state.log = [];
      show(made);
    } catch (err) {
      note.className = "message error";
      note.textContent = err.message;
    }
  };
}

async function copyLink() {
  const link = $("friend-link").value;
  try {
    await navigator.clipboard.writeText(link);
    $("friend-copied").textContent = "Copied: send it to your friend.";
  } catch {
    $("friend-link").select();
    $("friend-copied").textContent = "Select the link and copy it.";
  }
}

async function rematch() {
  const v = state.view;
  try {
    const again = v.friend.rematch ? await api("GET", `/api/games/${v.friend.rematch}`)
      : await api("POST", `/api/games/${v.id}/rematch`);
    state.log = [];
    show(again);
  } catch (err) {
    $("friend-status").textContent = err.message;
  }
}

// The link a friend opens (/join/TOKEN): take the seat, then the page's address is the board's.
async function joinFromLink() {
  const token = location.pathname.slice("/join/".length);
  history.replaceState(null, "", "/");
  try {
    show(await api("POST", `/api/join/${encodeURIComponent(token)}`));
  } catch (err) {
    state.message = { text: `${err.message}.`, tone: "error" };
    render();
  }
}

// A reload, or a new tab: back to the friend's match being played.
async function backToMatch() {
  try {
    const { games } = await api("GET", "/api/friends");
    const v = state.view;
    if (games.length && !(v && v.friend && games.some((g) => g.id === v.id))) await openGame(games[0].id);
  } catch {
    // no match to go back to: the page stays where it is
  }
}

// -- drawing --------------------------------------------------------------------------------------

function statusWords(v, f) {
  // the board's own words: the score and who won, or the finished game held on the board
  if (v.finished || state.held) return null;
  if (!f.joined) return "Waiting for your friend to open the link…";
  if (f.your_turn && v.waiting_for === "secret") return "Choose your code: your friend sees it only once the game is over";
  if (f.your_turn) return null; // the board's own words: guess, reply
  const them = v.waiting_for === "secret" ? "is choosing the code" : v.waiting_for === "reply" ?
    "is replying to your guess" : "is guessing";
  return `Your friend ${them}…`;
}

function draw(v) {
  const panel = $("friend-panel");
  const f = v && v.friend;
  panel.hidden = !f || Boolean(v.left);
  $("friend-rematch").hidden = !(f && v.finished && f.joined);
  // a match closed when nobody moved in it for long: said to both, pushed or on their next load
  if (v && v.left) $("status").textContent = v.left;
  if (!f || (v && v.left)) {
    if (line.socket) close();
    return;
  }
  connect(v.id);
  $("title").textContent = `A match with a friend · ${v.games} games, ${v.scoring} scoring`;
  const words = statusWords(v, f);
  if (words !== null) $("status").textContent = words;
  const invite = f.invite ? `${location.origin}${f.invite}` : null;
  $("friend-invite").hidden = !invite;
  if (invite && $("friend-link").value !== invite) {
    $("friend-link").value = invite;
    $("friend-qr").src = `/api/games/${v.id}/invite.svg`;
  }
  // a game held on the board: the role this player had in it, not in the match's next game
  const heldRound = state.held && v.rounds.find((x) => x.number === state.held.round);
  const role = heldRound ? (heldRound.maker === f.you ? "you made the code" : "you broke it") :
    f.role === "maker" ? "you make the code" : "you break the code";
  const here = !f.joined ? "" : f.here ? " · your friend is here" :
    " · your friend has left the match (they may come back)";
  const code = f.secret ? ` · your code: ${f.secret}` : "";
  // short enough for one line on a phone (the score line says which game it is): the rows keep it
  $("friend-status").textContent = `Player ${f.you}: ${role}${code}${here}`;
  const players = document.querySelectorAll("#score .player");
  players.forEach((p, i) => {
    const who = i + 1 === f.you ? "You" : "Friend";
    p.textContent = `${who}: ${v.score[i]}`;  // one line on a phone; the number said in full for a reader
    p.setAttribute("aria-label", `${who} (player ${i + 1}): ${v.score[i]}`);
  });
  $("friend-rematch").textContent = f.rematch ? "Go to the rematch" : "Rematch, roles swapped";
}

function wire() {
  // beside New game, apart from Guess and Undo: it starts another game
  const controls = document.getElementById("new-game").parentElement;
  controls.append(el("button", { type: "button", id: "play-friend", class: "control", text: "Friend",
    "aria-label": "Play a friend",
    on: { click: openForm } }));
  const side = document.querySelector("#board-section .side");
  side.prepend(
    el("form", { id: "friend-form", class: "friend-form", hidden: true, "aria-label": "A match with a friend" }),
    el("div", { id: "friend-panel", class: "friend-panel", hidden: true, role: "group", "aria-label": "Your friend" },
      el("p", { id: "friend-status", class: "friend-status", role: "status", "aria-live": "polite" }),
      el("div", { id: "friend-invite", class: "friend-invite", hidden: true },
        el("div", { class: "friend-invite-link" },
          el("label", { for: "friend-link", text: "Give this link to your friend:" }),
          el("input", { id: "friend-link", type: "text", readonly: true }),
          el("button", { type: "button", id: "friend-copy", class: "control primary", text: "Copy the link",
            on: { click: copyLink } }),
          el("p", { id: "friend-copied", class: "message", "aria-live": "polite" })),
        // the same link for a phone's camera (the server draws it: web/invite_code.py)
        el("img", { id: "friend-qr", class: "friend-qr", alt: "The link as a QR code, for a phone's camera" })),
      el("button", { type: "button", id: "friend-rematch", class: "control primary", hidden: true,
        on: { click: rematch } })));
  drawHooks.push(draw);
  if (state.view) draw(state.view);
}

wire();
const joining = location.pathname.startsWith("/join/");
// once the page has started (its settings read, its game shown), a link is followed or a match
// taken up again
const started = new MutationObserver(() => {
  if (document.body.dataset.ready !== "true") return;
  started.disconnect();
  if (joining) joinFromLink();
  else backToMatch();
});
if (document.body.dataset.ready === "true") {
  if (joining) joinFromLink();
  else backToMatch();
} else {
  started.observe(document.body, { attributes: true, attributeFilter: ["data-ready"] });
}
