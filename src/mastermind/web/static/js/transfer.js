// Moving your history to another browser or device: a code made here, entered there. Everything
// moves (games, statistics, settings, seats at a friend's match); this browser keeps none of it.
// Or by a file: Export downloads it (a copy: this browser keeps its games), Import gives a file's
// games to this browser after its own, renumbered as a code's are (the server's rule).

import { api } from "./api.js";
import { el } from "./board.js";

const $ = (id) => document.getElementById(id);

// What became of a code or a file, said under the buttons and scrolled into view (on a phone the
// line falls under the fold).
function tell(text) {
  const note = $("transfer-note");
  note.textContent = text.charAt(0).toUpperCase() + text.slice(1);  // the server's line, a sentence
  note.scrollIntoView({ block: "nearest" });
}

async function make() {
  try {
    const { code, expires_in: seconds } = await api("POST", "/api/transfer");
    tell(`Your code: ${code}. Enter it on the other device within ${seconds / 60} minutes: ` +
      "your games, statistics and settings move there, and leave this browser.");
  } catch (err) {
    tell(`${err.message}.`);
  }
}

async function take(e) {
  e.preventDefault();
  const code = $("transfer-code").value.trim();
  if (!code) return;
  try {
    const { moved } = await api("POST", `/api/transfer/${encodeURIComponent(code)}`);
    tell(`${moved} game${moved === 1 ? "" : "s"} moved here.`);
    setTimeout(() => location.reload(), 800); // the page starts again with the history it now has
  } catch (err) {
    tell(`${err.message}.`);
  }
}

async function importFile() {
  const input = $("import-file");
  const file = input.files && input.files[0];
  input.value = "";  // the same file may be chosen again after a refusal
  if (!file) return;
  try {
    const { moved } = await api("POST", "/api/import", file);
    tell(`${moved} game${moved === 1 ? "" : "s"} from the file added here.`);
    setTimeout(() => location.reload(), 800); // the page starts again with the history it now has
  } catch (err) {
    tell(`${err.message}.`);
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
      el("p", { class: "transfer-or", text: "Or keep them in a file, and read it on the other device:" }),
      el("div", { class: "controls" },
        el("a", { id: "export", class: "control", href: "/api/export", download: "mastermind-history.json",
          text: "Export" }),
        el("button", { type: "button", id: "import", class: "control", text: "Import a file",
          on: { click: () => $("import-file").click() } }),
        el("input", { id: "import-file", type: "file", accept: ".json,application/json", hidden: true,
          on: { change: importFile } })),
      el("p", { id: "transfer-note", class: "message", role: "status", "aria-live": "polite" })));
}

wire();
