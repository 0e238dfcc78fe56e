// The table: one seat's view of a game (play), a watched game (watch), or a log (replay).
// Everything drawn comes from the server's view of this seat; text is set as text, never as HTML.
"use strict";
const query = new URLSearchParams(location.search);
const token = query.get("token");
const replayId = query.get("replay");
const seat = query.get("seat");
const base = replayId ? `/api/replays/${replayId}` : `/api/games/${query.get("game")}/${seat}`;
const $ = (id) => document.getElementById(id);
let at = 0, frames = 1, viewAs = null, timer = null, graphShown = false, lastFired = null;

function el(tag, attrs = {}, text = "") {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  node.textContent = text;
  return node;
}

function url(path, params = {}) {
  return `${base}${path}?` + new URLSearchParams({token, ...params});
}

async function api(path, params, body) {
  const response = await fetch(url(path, params), body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)});
  let data;
  try {
    data = await response.json();
  } catch {  // not JSON (a proxy's error page): said as its status, not as a parser's complaint
    throw new Error(`the server answered ${response.status} ${response.statusText}`.trim());
  }
  if (!response.ok) throw Object.assign(new Error(data.error), {status: response.status});
  return data;
}

// a table the server has not (404: a restart) or a link it refuses (403): no retry helps
function gone(error) {
  return error.status === 404 || error.status === 403;
}

function shown(promise) {
  return promise.then(() => { $("error").textContent = ""; })
    .catch((e) => { $("error").textContent = e.message; });
}

// the spec's text of a card, zone, counter, rule or choice (public), shown when hovered
function withText(attrs, text) {
  return text ? {...attrs, "data-text": text} : attrs;
}

function cardList(cards) {
  const list = el("ul", {class: "cards"});
  for (const c of cards) list.append(el("li", withText({class: "card", "data-card": c.name}, c.text), c.title));
  return list;
}

function tooltips() {
  const tip = $("tooltip");
  document.addEventListener("mouseover", (e) => {
    const target = e.target.closest?.("[data-text]");
    if (!target) { tip.hidden = true; return; }
    tip.textContent = target.dataset.text;
    const box = target.getBoundingClientRect();
    tip.style.left = `${window.scrollX + box.left}px`;
    tip.style.top = `${window.scrollY + box.bottom + 4}px`;
    tip.hidden = false;
  });
}

const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

// a zone of the table (rulespec/table/view.py's data): its cards, or its size and what was shown
function area(zone) {
  const box = el("div", {class: "area", "data-zone": zone.name, "data-label": zone.label});
  box.append(el("h3", withText({}, zone.text), `${capital(zone.title)} (${zone.size})`));
  if (zone.cards === null) {
    box.classList.add("hidden");
    box.append(el("p", {class: "back"}, zone.size ? `${zone.size} face down` : "empty"));
    const seen = zone.revealed.map((r) => ({...r, title: r.where ? `${r.title} (${r.where})` : r.title}));
    if (seen.length) box.append(el("p", {}, "known to you:"), cardList(seen));
  } else if (zone.top_only) {  // a long pile: its size and its top card
    box.append(el("p", {class: "top"}, "top: "), cardList([zone.cards[zone.cards.length - 1]]));
  } else {  // a short pile bottom first, its top marked (a pile of one has no other)
    const top = zone.pile && zone.cards.length > 1 ? zone.cards.length - 1 : -1;
    const cards = zone.cards.map((c, i) => (i === top ? {...c, title: `${c.title} (top)`} : c));
    box.append(cardList(cards));
  }
  return box;
}

function draw(v) {
  seenEvents = v.events;
  document.title = `${v.title}: ${v.seat || "spectator"}`;
  $("title").textContent = v.title;
  // a replay is read as a seat saw it: the reader is not that seat (a browser trial's)
  const mine = v.seat && !replayId;
  $("status").textContent = mine ? `you are ${v.seat}` : v.seat ? `as ${v.seat} saw it` : "spectator";
  $("turn").textContent = v.over ? "" : v.between ? v.between + (v.turn ? `, after turn ${v.turn}` : "")
    : !v.turn ? "Setup"  // turn 0: the deal, nobody's turn yet (a choice may be asked)
    : `Turn ${v.turn}: ${mine && v.current === v.seat ? "your turn" : v.current + "'s turn"}`
      // asked in another's turn (a choice for another seat): the terminal's heading says so too
      + (v.asked ? `, ${mine ? "you choose" : v.asked + " chooses"}` : "");
  $("waiting").textContent = waiting(v);
  $("result").textContent = v.result
    ? `Game over: ${v.result.winners.join(", ") || "nobody"} ${v.result.winners.length > 1 ? "win" : "wins"}, ${v.why}` : "";
  drawAgain(v);
  drawOptions(v);
  $("shared").replaceChildren(...v.zones.map(area));
  $("values").replaceChildren(...counterRows(v.values));  // the named values shown, by the shared zones
  const seats = [...v.seats.filter((s) => s.you), ...v.seats.filter((s) => !s.you)];  // yours first
  $("players").replaceChildren(...seats.map((s) => {
    const box = el("div", {class: "player" + (s.you ? " you" : "") + (s.seat === v.current && !v.over ? " current" : ""), "data-seat": s.seat});
    // asked while another's turn goes on (a step offered round the table, an answer)
    const asked = !v.over && s.seat !== v.current
      && (v.waiting_for === s.seat || (s.you && (v.options || []).length > 0));
    const marks = [s.you && "you", s.out && "out", asked && "asked"].filter(Boolean);  // out: yours too
    box.append(el("h3", {}, s.seat + (marks.length ? ` (${marks.join(", ")})` : "")), ...s.zones.map(area));
    const shown = s.counters.concat(s.values);  // its counters, then the values shown for it
    if (shown.length) box.append(counterTable(shown));
    box.append(...s.goals.map(goalLine));
    if (s.owed) box.append(el("p", {class: "owed"}, s.owed));  // "1 more turn to take"
    return box;
  }));
  $("counters").replaceChildren(...counterRows(v.counters));
  $("params").replaceChildren(...counterRows(v.params));
  for (const id of ["counters", "params"]) {  // no heading over nothing
    $(id).previousElementSibling.hidden = $(id).children.length === 0;
  }
  const from = v.last_move ? v.last_move.line : v.narration.length;  // the last move's lines
  $("narration").replaceChildren(...v.narration.map((line, i) => el("li",
    {class: (line.startsWith(" ") ? "" : "head") + (i >= from ? " last-move" : "")}, line.trim())));
  // the box scrolls to its last line, never the page (on a phone, one column, scrolling
  // the last line into view took the page away from the options)
  $("narration").scrollTop = $("narration").scrollHeight;
  for (const zone of document.querySelectorAll(".area")) {
    zone.classList.toggle("moved", Boolean(v.last_move?.zones.includes(zone.dataset.label)));
  }
  drawRules(v.rules);
  lastSeen = `${v.events} ${v.rematch || ""}`;
  lastFired = v.fired;
  highlight();
}

// whom the game waits for: a seat (and who sits there), or an answer in a reaction window
function waiting(v) {
  if (v.over || replayId || !v.waiting_for) return "";
  const who = (v.players || []).find((p) => p.seat === v.waiting_for);
  return `Waiting for ${v.waiting_for}${who ? ` (${who.who})` : ""}`;
}

const LISTED_SETS = 20;  // a choice of more sets of cards than this is picked card by card

// the decision: the rule asking, its prompt and text; options grouped by card, Pass last
function drawOptions(v) {
  const options = $("options");
  options.replaceChildren();
  if (v.picked) {  // chosen before this seat's turn at a simultaneous choice
    options.append(el("p", {class: "asking picked"}, `Your choice: ${v.picked} (taken when the seats before you have chosen)`));
    return;
  }
  if (!v.options.length) return;
  const asking = el("p", {class: "asking"}, v.asking);
  if (v.asker?.text) asking.append(el("small", {}, v.asker.text));
  options.append(asking);
  if (!replayId && v.options.length > LISTED_SETS && v.options.every((o) => o.cards)) {
    options.append(cardPicker(v.options));
    return;
  }
  const sizes = {};
  for (const o of v.options) if (o.group !== null) sizes[o.group] = (sizes[o.group] || 0) + 1;
  let box = null;
  for (const o of v.options) {
    const grouped = o.group !== null && sizes[o.group] > 1;
    const b = el("button", withText({class: "option" + (o.group === null && o.text === "Pass" ? " pass" : "")
      + (o.label === v.chosen ? " chosen" : ""), "data-label": o.label, "aria-label": o.text}, o.help), grouped ? o.short : o.text);
    if (replayId) b.disabled = true;  // a replay shows what was offered, and what was chosen
    else b.addEventListener("click", () => shown(choose(o.label)));
    if (!grouped) { options.append(b); box = null; continue; }
    if (box?.dataset.group !== o.group) {
      box = el("div", {class: "group", role: "group", "data-group": o.group, "aria-label": o.group});
      box.append(el("span", {}, o.group));
      options.append(box);
    }
    box.append(b);
  }
}

// a choice of many sets of cards (a pass of 3 from 13 is 286 sets): the cards offered,
// each copy a button to pick or put back, and Choose once the picks make a set on offer
function cardPicker(options) {
  // a set by its cards' names (its label's parts), shown by their titles (o.cards)
  const key = (names) => JSON.stringify([...names].sort());
  const sets = new Map(options.map((o) => [key(o.label.split("+")), o.label]));
  const most = new Map();  // card name -> [its title, the most copies a set takes], first offered first
  for (const o of options) {
    const here = {};
    o.label.split("+").forEach((name, i) => { here[name] = [o.cards[i], (here[name]?.[1] || 0) + 1]; });
    for (const [name, [title, n]] of Object.entries(here)) most.set(name, [title, Math.max(most.get(name)?.[1] || 0, n)]);
  }
  const sizes = [...new Set(options.map((o) => o.cards.length))].sort((a, b) => a - b);
  const many = sizes.length === 1 ? `${sizes[0]}` : `${sizes[0]} to ${sizes.at(-1)}`;
  const box = el("div", {class: "picker", role: "group", "aria-label": `choose ${many} cards`});
  box.append(el("span", {}, `Choose ${many} cards:`));
  const go = el("button", {class: "option pick-done", disabled: ""}, "Choose");
  const picked = () => [...box.querySelectorAll("button.pick.picked")].map((b) => b.dataset.card);
  for (const [card, [title, n]] of most) {
    for (let i = 0; i < n; i++) {
      const b = el("button", {class: "option pick", "data-card": card, "aria-pressed": "false"}, title);
      b.addEventListener("click", () => {
        b.classList.toggle("picked");
        b.setAttribute("aria-pressed", String(b.classList.contains("picked")));
        go.disabled = !sets.has(key(picked()));
      });
      box.append(b);
    }
  }
  go.addEventListener("click", () => shown(choose(sets.get(key(picked())))));
  box.append(go);
  return box;
}

function drawRules(rules) {
  if ($("rules").childElementCount) return;  // the rules do not change during a game
  $("rules").replaceChildren(...rules.flatMap((r) => {
    const title = el("dt", {"data-rule": r.name}, r.title);
    title.append(el("small", {}, ` ${r.kind}`));
    return [title, el("dd", {"data-rule": r.name}, r.text || "")];
  }));
}

// at the end, a new game at the same table; someone else's new game, joined
function drawAgain(v) {
  const again = $("again");
  again.replaceChildren();
  if (!v.over || replayId) return;
  if (v.rematch) {
    again.append(el("a", {id: "rematch-link", href: v.rematch}, "The next game has begun: join it"));
    return;
  }
  again.append(button("rematch", "New game", async () => {
    const {link} = await api("/rematch", {}, {});
    location.href = link;
  }));
}

function counterRows(counters) {
  return counters.map((c) => {
    const row = el("tr", {"data-name": c.label || c.name});
    // a yes-or-no parameter as a person says it, as the text table does
    const value = typeof c.value === "boolean" ? (c.value ? "yes" : "no") : String(c.value);
    row.append(el("th", withText({}, c.text), c.title), el("td", {}, value));
    return row;
  });
}

// a seat's progress toward a goal set: each entry's cards of its limit, the next marked
function goalLine(g) {
  const line = el("p", {class: "goal", "data-goal": g.name}, `${g.title}: `);
  line.append(...g.entries.map((e) => el("span",
    {class: e.title === g.next ? "next" : e.have >= e.limit ? "done" : ""}, `${e.title} ${e.have}/${e.limit}`)));
  return line;
}

function counterTable(counters) {
  const box = el("table", {class: "counters"});
  box.append(...counterRows(counters));
  return box;
}

// answers can come back out of order (a replay's slider moved fast): only the answer
// to the latest request is drawn
let asked = 0;

async function refresh() {
  const mine = ++asked;
  const v = replayId ? await api("", viewAs ? {at, as: viewAs} : {at}) : await api("");
  if (mine !== asked) return v;
  if (replayId) drawReplay(v);
  draw(v);
  await graph();
  return v;
}

// the choice names the events of the view it was made in, so a second click on a
// button (sent before the first's answer came) is refused, not taken as the next move
let seenEvents = null;

async function choose(label) {
  clearTimeout(timer);  // no poll while the choice is on its way
  for (const b of document.querySelectorAll("#options button")) b.disabled = true;
  const mine = ++asked;  // a poll's answer in flight is older than this one
  try {
    const v = await api("/choose", {}, {option: label, events: seenEvents});
    if (mine === asked) draw(v);
  } catch (e) {
    lastSeen = null;  // refused or lost: the next poll draws the game as it now stands
    throw e;
  } finally {
    poll();
  }
}

// a person's page follows the game: it asks again every moment while others play, and
// every few seconds at its own decision (another tab of the seat may answer) and after
// the end, until someone starts the next game. A request that fails is tried again: a
// moment without the server is no reason to stop following the game; a table the
// server no longer has (404, after a restart) or a link it refuses (403) is for good.
let lastSeen = null, lost = false;

function poll(delay = 700) {
  clearTimeout(timer);
  timer = setTimeout(async () => {
    const mine = ++asked;
    let v = null;
    try {
      v = await api("");
      if (lost) $("error").textContent = "";
      lost = false;
    } catch (e) {
      // the table is gone (a restart), or a rule of the spec stopped its game (409, with
      // the rule's place): for good, no retry helps; Save game keeps a stopped game
      if (gone(e) || e.status === 409) {
        $("error").textContent = e.status === 409
          ? `${e.message}: Save game keeps the game up to there`
          : `${e.message}: open the lobby to start a game, or to resume a saved one`;
        for (const b of document.querySelectorAll("#options button")) b.disabled = true;
        return;
      }
      lost = true;
      $("error").textContent = `${e.message} (trying again)`;
      poll(3000);
      return;
    }
    const now = `${v.events} ${v.rematch || ""}`;  // redrawn only when it changed
    if (mine === asked && now !== lastSeen) {
      draw(v);
      await graph();
    }
    if (!v.rematch) poll(v.options.length || v.over ? 2000 : 700);
  }, delay);
}

async function graph() {
  if (graphShown) return;
  graphShown = true;
  const g = await api("/graph");
  const box = $("graph");
  if (g.svg) {
    box.innerHTML = g.svg;  // Graphviz's own drawing of the spec: its text is escaped by dot
  } else {
    const list = el("ul", {class: "graph-list"});
    for (const n of g.nodes) {
      const item = el("li", {"data-node": n.id}, `${n.kind}: ${n.label}`);
      const out = g.edges.filter((e) => e.source === n.id).map((e) => `${e.kind} ${e.target}`);
      if (out.length) item.append(el("small", {}, " → " + out.join(", ")));
      list.append(item);
    }
    box.append(list);
  }
  exploreGraph(box, g);
  highlight();
}

function highlight() {
  $("fired").textContent = lastFired ? `last fired: ${lastFired.title}` : "";
  for (const n of document.querySelectorAll("#graph .fired, #rules .fired")) n.classList.remove("fired");
  for (const n of document.querySelectorAll("#rules [data-rule]")) {
    if (lastFired && n.dataset.rule === lastFired.label) n.classList.add("fired");
  }
  if (!lastFired) return;
  for (const n of document.querySelectorAll("#graph g.node, #graph li")) {
    const id = n.dataset.node || n.querySelector("title")?.textContent;
    if (id === lastFired.id) n.classList.add("fired");
  }
}

function button(id, text, action) {
  const b = el("button", {id}, text);
  b.addEventListener("click", () => shown(action()));
  return b;
}

function watchControls() {
  const speed = el("select", {id: "speed"});
  for (const [ms, name] of [[1000, "slow"], [300, "normal"], [50, "fast"]]) speed.append(el("option", {value: ms}, name));
  speed.value = "300";
  const go = async () => { const v = await api("/step", {}, {}); draw(v); return v; };
  const run = async () => {
    const v = await go();
    if (!v.over && timer !== null) timer = setTimeout(() => shown(run()), Number(speed.value));
  };
  const pause = () => { clearTimeout(timer); timer = null; $("play").disabled = false; };
  $("controls").append(
    button("play", "Play", async () => { $("play").disabled = true; timer = 0; await run(); }),
    button("pause", "Pause", async () => pause()),
    button("step", "Step", async () => { pause(); await go(); }),
    el("label", {}, " speed "), speed);
}

function drawReplay(v) {
  frames = v.frames;
  const slider = $("position");
  slider.max = String(frames - 1);
  slider.value = String(at);
  $("where").textContent = `decision ${at} of ${frames - 1}, event ${v.events}`;
  const select = $("view-as");
  if (select.options.length === 0) {  // the views this replay may show
    for (const s of v.views) select.append(el("option", {value: s}, s));
  }
}

function replayControls() {
  const move = (to) => async () => { at = Math.max(0, Math.min(frames - 1, to)); await refresh(); };
  const slider = el("input", {id: "position", type: "range", min: "0", value: "0"});
  slider.addEventListener("input", () => shown(move(Number(slider.value))()));
  const select = el("select", {id: "view-as"});
  select.addEventListener("change", () => { viewAs = select.value; shown(refresh()); });
  $("controls").append(
    // words, not ⏮ ◀ ▶ ⏭: fonts without those glyphs drew empty boxes, and a screen
    // reader had no name to read
    named(button("start", "First", () => move(0)()), "First decision"),
    named(button("back", "Back", () => move(at - 1)()), "Back one decision"), named(slider, "Position in the game"),
    named(button("forward", "Forward", () => move(at + 1)()), "Forward one decision"),
    named(button("end", "Last", () => move(frames - 1)()), "Last decision"),
    el("span", {id: "where", "aria-live": "polite"}), el("label", {for: "view-as"}, " view as "), select);
}

// a control's accessible name, read by screen readers and found by tests
function named(node, label) {
  node.setAttribute("aria-label", label);
  return node;
}

function saveControl() {
  $("controls").append(button("save", "Save game", async () => {
    const {saved} = await api("/save", {}, {});
    $("saved")?.remove();  // the latest save only
    $("controls").append(el("span", {id: "saved"}, ` saved as ${saved}`));
  }));
}

async function main() {
  tooltips();
  if (replayId) replayControls();
  else if (seat === "spectator") watchControls();
  if (!replayId) saveControl();
  try {
    await refresh();
  } catch (e) {  // a link refused, or a table the server has not: no table to draw
    if (gone(e)) {
      document.querySelector("main").hidden = true;
      $("controls").replaceChildren();
    }
    throw e;
  }
  if (!replayId && seat !== "spectator") poll();
}

shown(main());
