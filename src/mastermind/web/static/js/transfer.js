// Moving your history to another browser or device: a code made here, entered there. Everything
// moves (games, statistics, settings, seats at a friend's match); this browser keeps none of it.

import { api } from "./api.js";
import { el } from "./board.js";

const $ = (id) => document.getElementById(id);

async function make() {
  const note = $("transfer-note");
  try {
    const { code, expires_in: seconds } = await api("POST", "/api/transfer");
    note.textContent = `Your code: ${code}. Enter it on the other device within ${seconds / 60} minutes: ` +
      "your games, statistics and settings move there, and leave this browser.";
  } catch (err) {
    note.textContent = `${err.message}.`;
  }
}

async function take(e) {
  e.preventDefault();
  const note = $("transfer-note");
  const code = $("transfer-code").value.trim();
  if (!code) return;
  try {
    const { moved } = await api("POST", `/api/transfer/${encodeURIComponent(code)}`);
    note.textContent = `${moved} game${moved === 1 ? "" : "s"} moved here.`;
    setTimeout(() => location.reload(), 800); // the page starts again with the history it now has
  } catch (err) {
    note.textContent = `${err.message}.`;
  }
}

function wire() {
  $("settings").after(
    el("section", { id: "transfer", class: "transfer", "aria-labelledby": "transfer-title" },
      el("h3", { id: "transfer-title", text: "Move your games to another device" }),
      el("button", { type: "button", id: "transfer-make", class: "control", text: "Make a transfer code",
        on: { click: make } }),
      el("form", { id: "transfer-form", class: "transfer-form", on: { submit: take } },
        el("label", { for: "transfer-code", text: "A code from your other device:" }),
        el("input", { id: "transfer-code", type: "text", autocomplete: "off", spellcheck: "false" }),
        el("button", { type: "submit", class: "control primary", text: "Move them here" })),
      el("p", { id: "transfer-note", class: "message", role: "status", "aria-live": "polite" })));
}

wire();
