// The lobby: pick a game, its variants, players, seed and seats; open a replay; resume a save.
"use strict";
let games = [];
const $ = (id) => document.getElementById(id);

async function api(path, body) {
  const response = await fetch(path, body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
  let data;
  try {
    data = await response.json();
  } catch {  // not JSON (a proxy's error page): said as its status, not as a parser's complaint
    throw new Error(`the server answered ${response.status} ${response.statusText}`.trim());
  }
  if (!response.ok) throw new Error(data.error);
  return data;
}

function shown(promise) {
  $("error").textContent = "";
  return promise.catch((e) => { $("error").textContent = e.message; });
}

function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  node.textContent = text;
  return node;
}

function game() { return games.find((g) => g.id === $("spec").value); }

function drawVariants() {
  const box = $("variants");
  box.querySelectorAll("label").forEach((l) => l.remove());
  for (const v of game().variants) {
    const label = el("label", {}, " " + v);
    label.prepend(el("input", {type: "checkbox", value: v, name: "variant"}));
    box.append(label);
  }
  const [low, high, usual] = game().players;
  Object.assign($("players"), {min: low, max: high, value: usual});
  // the agents this game can seat: not greedy at a spec without an evaluation
  $("agent-names").replaceChildren(...game().agents.map((a) => el("option", {value: a})));
  $("seats").querySelectorAll("label").forEach((l) => l.remove());  // another game's seats
  drawSeats();
}

// a seat field per player, as many as the game allows at most: those already there are
// kept with what was typed in them (a click into one as the player count changes lands)
function drawSeats() {
  const box = $("seats"), field = $("players");
  const [low, high, , counts] = game().players;
  const labels = box.querySelectorAll("label");
  let n = Math.min(high, Math.max(low, Math.trunc(Number(field.value)) || low));
  if (!counts.includes(n)) {  // a count the game skips (2 or 4): on to the next one it allows
    n = n > labels.length ? counts.find((c) => c > n) : counts.findLast((c) => c < n);
  }
  if (String(n) !== field.value) field.value = String(n);
  labels.forEach((l, i) => { if (i >= n) l.remove(); });
  for (let p = labels.length + 1; p <= n; p++) {
    const label = el("label", {}, `P${p} `);
    const input = el("input", {list: "agent-names", name: "seat", id: `seat-P${p}`});
    input.value = p === 1 ? "person" : "random";
    label.append(input);
    box.append(label);
  }
}

function showLinks(links) {
  const box = $("links");
  const watched = Object.keys(links).length === 1 && "spectator" in links;  // agents only
  box.replaceChildren(el("p", {}, watched ? "Watch link (it shows every card):"
    : "Seat links (each carries its seat's secret: give each person theirs):"));
  for (const [seat, link] of Object.entries(links)) {
    const row = el("p");
    row.append(el("a", {href: link, class: "seat-link", "data-seat": seat}, `${seat}: ${location.origin}${link}`));
    box.append(row);
  }
}

async function start(event) {
  event.preventDefault();
  const request = {
    spec: $("spec").value,
    variants: [...document.querySelectorAll("input[name=variant]:checked")].map((i) => i.value),
    players: Number($("players").value),
    seats: [...document.querySelectorAll("input[name=seat]")].map((i) => i.value.trim()),
  };
  if ($("seed").value !== "") {  // else a fresh deal
    request.seed = Number($("seed").value);
    if (!Number.isSafeInteger(request.seed)) {  // a number past 2^53 would be sent rounded
      throw new Error(`a seed here is a whole number of at most ${Number.MAX_SAFE_INTEGER}`);
    }
  }
  showLinks((await api("/api/games", request)).links);
}

async function openReplay(event) {
  event.preventDefault();
  const file = $("log-file").files[0];
  const request = file ? {log: await file.text()} : {path: $("log-path").value};
  request.game = Number($("log-game").value);
  location.href = (await api("/api/replays", request)).link;
}

async function resume(event) {
  event.preventDefault();
  const seats = $("resume-seats").value.split(",").map((s) => s.trim());
  showLinks((await api("/api/games", {resume: $("resume-path").value, seats})).links);
}

async function main() {
  ({games} = await api("/api/lobby"));
  document.body.append(el("datalist", {id: "agent-names"}));
  for (const g of games) $("spec").append(el("option", {value: g.id}, g.title));
  $("spec").addEventListener("change", drawVariants);
  $("players").addEventListener("change", drawSeats);
  $("new-game").addEventListener("submit", (e) => shown(start(e)));
  $("replay").addEventListener("submit", (e) => shown(openReplay(e)));
  $("resume").addEventListener("submit", (e) => shown(resume(e)));
  drawVariants();
}

shown(main());
