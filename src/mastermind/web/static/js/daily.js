// The code of the day on the page: a button that starts (or takes up again) the visitor's game of
// the day, and once it is over a Share button with the server's share text (the games package's:
// no code in it). A phone shares it through the Web Share API; elsewhere it goes to the clipboard.

import { api } from "./api.js";
import { newGame } from "./app.js";
import { drawHooks, state } from "./state.js";
import { el } from "./board.js";

const $ = (id) => document.getElementById(id);

function shareBy() {
  // the share sheet where the device has one and it is a touch device (desktop browsers that have
  // navigator.share open a small dialog people do not expect: the clipboard is plainer there)
  return typeof navigator.share === "function" && window.matchMedia("(pointer: coarse)").matches
    ? "sheet" : "clipboard";
}

async function share() {
  const text = state.view && state.view.share;
  if (!text) return;
  const note = $("share-note");
  try {
    if (shareBy() === "sheet") {
      await navigator.share({ text });
      note.textContent = "Shared.";
    } else {
      await navigator.clipboard.writeText(text);
      note.textContent = "Copied to the clipboard: paste it anywhere.";
    }
  } catch (err) {
    if (err && err.name === "AbortError") return; // the share sheet closed: nothing to say
    note.textContent = "The text could not be copied: select it below and copy it.";
  }
}

let counted = null; // the game of the day whose statistics are shown

async function showStats() {
  try {
    // the line in the games package's words: the command line prints the same one
    const { summary } = await api("GET", "/api/daily/stats");
    $("daily-stats").textContent = summary;
  } catch {
    $("daily-stats").textContent = "";
  }
}

function draw(v) {
  const daily = Boolean(v && v.daily);
  const text = daily && v.finished ? v.share : null;
  $("share").hidden = !text;
  $("share-text").hidden = !text;
  $("share-text").textContent = text || "";
  if (!text) $("share-note").textContent = "";
  $("daily").hidden = daily && !v.finished;
  if (!text) $("daily-stats").textContent = "";
  else if (counted !== v.id) {
    counted = v.id;
    showStats();
  }
  if (daily) {
    const hard = v.hard ? " · hard mode" : "";
    $("title").textContent = `The code of the day #${v.day} · ${v.daily}${hard}`;
  }
}

function wire() {
  // beside New game, apart from Guess and Undo: each starts another game
  const controls = document.getElementById("new-game").parentElement;
  controls.append(
    el("button", { type: "button", id: "daily", class: "control", text: "Daily",
      "aria-label": "Daily: the code of the day",
      on: { click: () => newGame({ mode: "daily", hard: Boolean(state.settings && state.settings.hard) }) } }),
    el("button", { type: "button", id: "share", class: "control primary", text: "Share", hidden: true,
      on: { click: share } }));
  controls.after(
    el("p", { id: "share-note", class: "message", role: "status", "aria-live": "polite" }),
    el("pre", { id: "share-text", class: "share-text", hidden: true, "aria-label": "The text to share" }),
    el("p", { id: "daily-stats", class: "help" }));
  drawHooks.push(draw);
  if (state.view) draw(state.view);
}

wire();
