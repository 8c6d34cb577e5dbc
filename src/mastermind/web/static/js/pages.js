// The visitor's history, statistics and settings: drawn from what the API answers.

import { api } from "./api.js";
import { el } from "./board.js";
import { newGame, openGame, setSettings } from "./app.js";
import { state } from "./state.js";
import { showReview } from "./review.js";

const $ = (id) => document.getElementById(id);

function rulesText(r) {
  const real = r.colors - (r.blank ? 1 : 0);
  return `${r.pegs}×${real}${r.blank ? "+blank" : ""}${r.repeats ? "" : " no repeats"}`;
}

function when(stamp) {
  return new Date(stamp).toLocaleString([], { dateStyle: "short", timeStyle: "short" });
}

function failed(box, err) {
  box.replaceChildren(el("p", { class: "message error", text: err.message }));
}

export async function showHistory() {
  const box = $("history");
  let games;
  try {
    ({ games } = await api("GET", "/api/history"));
  } catch (err) {
    return failed(box, err);
  }
  if (!games.length) return box.replaceChildren(el("p", { text: "No games yet." }));
  const rows = games.map((g) => {
    const result = g.mode === "match" ? `${g.players.join(" v ")}: ${g.score.join("-")} (${g.outcome})` :
      `${g.outcome}${g.secret ? ` · ${g.secret}` : ""}`;
    return el("tr", {},
      el("td", { text: String(g.id) }),
      el("td", { text: when(g.started) }),
      el("td", { text: { break: "you break", solve: "computer breaks", match: "match" }[g.mode] || g.mode }),
      el("td", { text: rulesText(g.rules) }),
      el("td", { text: `${g.guesses} ${g.guesses === 1 ? "guess" : "guesses"}` }),
      el("td", { text: result }),
      el("td", { class: "history-actions" },
        el("button", { type: "button", class: "history-open", on: { click: () => openGame(g.id) },
          text: g.finished ? "View" : "Resume", "aria-label": `${g.finished ? "View" : "Resume"} game ${g.id}` }),
        g.reviewable ? el("button", { type: "button", class: "history-open history-review",
          on: { click: () => showReview(g.id, "history-section") }, text: "Review",
          "aria-label": `Review game ${g.id}` }) : null));
  });
  const head = el("tr", {}, ...["#", "Started", "Mode", "Game", "Guesses", "Result", ""].map((t) =>
    el("th", { scope: "col", text: t })));
  box.replaceChildren(el("div", { class: "table-wrap" }, el("table", {}, el("thead", {}, head), el("tbody", {}, rows))));
}

export async function showStats() {
  const box = $("stats");
  let stats;
  try {
    stats = await api("GET", "/api/stats");
  } catch (err) {
    return failed(box, err);
  }
  const cards = [];
  for (const [mode, title] of [["break", "You breaking the computer's code"], ["solve", "The computer breaking yours"]]) {
    for (const s of stats[mode]) {
      const most = Math.max(1, ...Object.values(s.distribution));
      const bars = Object.entries(s.distribution).flatMap(([k, n]) => [
        el("span", { text: `${k}` }),
        el("span", { class: "bar", vars: { "--w": `${(100 * n) / most}%` }, role: "img",
          "aria-label": `${n} won in ${k}` }),
        el("span", { text: String(n) })]);
      cards.push(el("div", { class: "stat-card" },
        el("h3", { text: `${title} · ${rulesText(s.rules)}` }),
        el("p", { text: `Played ${s.played}, won ${s.won} (${Math.round(100 * s.win_rate)}%), ` +
          `lost ${s.lost}, given up ${s.gave_up}` + (s.mean_guesses === null ? "" :
          `; ${s.mean_guesses.toFixed(2)} guesses on average`) +
          `; best streak ${s.best_streak}, current ${s.current_streak}` +
          (s.unfinished ? `; ${s.unfinished} unfinished` : "") + "." }),
        Object.keys(s.distribution).length ? el("div", { class: "bars", "aria-label": "Guesses of the won games" }, bars) : null));
    }
  }
  box.replaceChildren(...(cards.length ? cards : [el("p", { text: "No finished games yet." })]));
}

const THEME_WORDS = { system: "as the system (light or dark)", light: "light", dark: "dark",
  "high-contrast": "high contrast" };

function field(label, control) {
  return el("label", {}, el("span", { text: label }), control);
}

function select(name, options, value) {
  return el("select", { name }, options.map(([v, text]) => el("option", { value: v, text, selected: v === value })));
}

function number(name, value, min, max) {
  return el("input", { type: "number", name, value: String(value), min: String(min), max: String(max),
    inputmode: "numeric" });
}

function checkbox(name, value) {
  return el("input", { type: "checkbox", name, checked: value });
}

export async function showSettings() {
  const form = $("settings");
  let answer;
  try {
    answer = await api("GET", "/api/settings");
  } catch (err) {
    return failed(form, err);
  }
  const { settings: s, choices: c } = answer;
  setSettings(s, c);
  const strategies = c.strategies.map((x) => [x.name, x.name]);
  const people = [["human", "a person"], ...strategies];
  const presets = [["", "(as below)"], ...Object.keys(c.presets).map((p) => [p, p])];
  const note = el("p", { class: "message", role: "status", "aria-live": "polite" });
  form.replaceChildren(
    el("fieldset", {}, el("legend", { text: "Mode" }),
      field("Play", select("mode", Object.entries(c.modes), s.mode))),
    el("fieldset", {}, el("legend", { text: "Game" }),
      field("Preset", select("preset", presets, "")),
      field("Pegs", number("pegs", s.pegs, ...c.limits.pegs)),
      field("Colours", number("colors", s.colors, ...c.limits.colors)),
      field("Repeats allowed", checkbox("repeats", s.repeats)),
      field("The blank (an empty hole as one more colour)", checkbox("blank", s.blank)),
      field("Guesses allowed", number("max_guesses", s.max_guesses, ...c.limits.max_guesses)),
      field(c.preferences.warn_inconsistent, checkbox("warn_inconsistent", s.warn_inconsistent)),
      field("Hard mode (every guess must be one that could still be the secret)", checkbox("hard", s.hard))),
    el("fieldset", {}, el("legend", { text: "Players" }),
      field("Strategy (hints, and the computer's guesses)", select("strategy", strategies, s.strategy)),
      field("Match: player 1", select("player1", people, s.players[0])),
      field("Match: player 2", select("player2", people, s.players[1])),
      field("Match: games", number("games", s.games, 2, c.limits.match_games)),
      field("Match: scoring", select("scoring", Object.keys(c.scoring).map((k) => [k, k]), s.scoring))),
    el("fieldset", {}, el("legend", { text: "Board" }),
      field("Symbols", select("notation", c.notations.map((k) => [k, k || "the game's own"]), s.notation)),
      field("Peg colours", select("palette", c.palettes.map((k) => [k, k]), s.palette)),
      field("Theme", select("theme", c.themes.map((k) => [k, THEME_WORDS[k] || k]), s.theme))),
    note,
    el("div", { class: "controls" },
      el("button", { type: "submit", class: "control primary", text: "Save and start a new game" })));
  form.onsubmit = async (e) => {
    e.preventDefault();
    const f = new FormData(form);
    const body = {
      mode: f.get("mode"), pegs: Number(f.get("pegs")), colors: Number(f.get("colors")),
      repeats: f.get("repeats") === "on", blank: f.get("blank") === "on", hard: f.get("hard") === "on",
      warn_inconsistent: f.get("warn_inconsistent") === "on",
      max_guesses: Number(f.get("max_guesses")), strategy: f.get("strategy"),
      players: [f.get("player1"), f.get("player2")], games: Number(f.get("games")),
      scoring: f.get("scoring"), notation: f.get("notation"), palette: f.get("palette"),
      theme: f.get("theme"),
    };
    if (f.get("preset")) body.preset = f.get("preset");
    try {
      const saved = await api("PUT", "/api/settings", body);
      setSettings(saved.settings, saved.choices);
      await newGame({});
    } catch (err) {
      note.className = "message error";
      note.textContent = err.message;
    }
  };
  state.settings = s;
}
