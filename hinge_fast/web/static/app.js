// The page of `hinge-fast serve`: every rule lives on the server (JSON API, docs/web.md);
// this script only turns clicks into requests and answers into the page.
"use strict";

const $ = (selector) => document.querySelector(selector);
const page = {
  state: null,          // the game as the server last described it
  selected: null,       // the cell of the token picked for a swipe
  thinking: false,      // the engine is choosing a move
  analysis: null,       // {position, svg} of the running or last analysis
  analysing: false,
  analysisDone: null,   // promise of the running analysis stream's end
  editing: false,
};

// ----- talking to the server -----------------------------------------------------------------
async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (response.headers.get("content-type") || "").includes("json");
  const data = json ? await response.json() : await response.text();
  if (!response.ok) throw new Error(json ? data.error : data);
  return data;
}

// POST a request answered with server-sent events; onEvent(name, data) for each.
async function stream(path, body, onEvent) {
  const response = await fetch(path, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  if (!response.ok) throw new Error((await response.json()).error);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const chunk = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const name = (chunk.match(/^event: (.*)$/m) || [])[1];
      const data = (chunk.match(/^data: (.*)$/m) || [])[1];
      if (name && data) onEvent(name, JSON.parse(data));
    }
  }
}

const gamePath = (suffix = "") => `/api/games/${page.state.id}${suffix}`;

function say(text) { $("#message").textContent = text || ""; }

// Run an action that may fail with the server's error text; show that text.
async function attempt(action) {
  try { say(""); await action(); } catch (error) { say(error.message); }
}

// ----- drawing ----------------------------------------------------------------------------------
function render(state) {
  const changed = !page.state || page.state.position !== state.position || page.state.ply !== state.ply;
  page.state = state;
  page.selected = null;
  hideChoice();
  const showAnalysis = page.analysis && page.analysis.position === state.position && page.analysis.svg;
  $("#board").innerHTML = showAnalysis ? page.analysis.svg : state.svg;
  $("#status").textContent = statusText(state);
  if (document.activeElement !== $("#position")) $("#position").value = state.position;
  $("#edit-turn").value = state.turn;
  $("#download-record").href = gamePath("/record");
  renderMoves(state);
  if (changed) {
    const wanted = page.analysing || ($("#live").checked && page.analysis);
    if (!showAnalysis) clearAnalysis();
    // a new position gets a new analysis, unless the engine is about to move
    if (wanted && !page.thinking && !page.editing && (humanToMove() || state.outcome)) restartAnalysis();
  }
}

function statusText(state) {
  if (state.outcome) return `${state.outcome.winner} wins by ${state.outcome.reason}`;
  if (page.thinking) return `${state.turn} to move: the engine is thinking…`;
  if (page.editing) return `editing: ${state.turn} to move`;
  return `${state.turn} to move`;
}

function renderMoves(state) {
  const list = $("#moves");
  list.innerHTML = "";
  const all = state.moves.concat(state.redo);
  const blueFirst = state.start.endsWith(" b");
  all.forEach((move, i) => {
    const item = document.createElement("li");
    const mover = (i + (blueFirst ? 1 : 0)) % 2 === 0 ? "green" : "blue";
    if (mover === "green" || i === 0) {
      const number = document.createElement("span");
      number.className = "number";
      number.textContent = `${Math.floor((i + (blueFirst ? 1 : 0)) / 2) + 1}.${mover === "blue" ? ".." : ""}`;
      item.append(number);
    }
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = move;
    button.dataset.ply = i + 1;
    button.addEventListener("click", () => attempt(async () => render(await api("POST", gamePath("/goto"), { ply: i + 1 }))));
    item.append(button);
    if (i + 1 === state.ply) item.classList.add("current");
    if (i + 1 > state.ply) item.classList.add("future");
    list.append(item);
  });
}

function cellElements(cell) { return $("#board").querySelectorAll(`[data-cell="${cell}"]`); }
function polygonOf(cell) { return $("#board").querySelector(`polygon[data-cell="${cell}"]`); }
function tokenAt(cell) {
  const token = $("#board").querySelector(`circle.token[data-cell="${cell}"]`);
  return token ? (token.classList.contains("green") ? "green" : "blue") : null;
}

// ----- clicking on the board -------------------------------------------------------------------
function humanToMove() {
  const state = page.state;
  if ($("#mode").value === "people") return true;
  return state.turn === $("#side").value;
}

async function onCell(cell) {
  say("");
  if (page.editing) {
    const piece = document.querySelector("input[name=piece]:checked").value || null;
    return attempt(async () => render(await api("POST", gamePath("/edit"), { cell, piece })));
  }
  const state = page.state;
  if (state.outcome) return say(`the game is over (${state.outcome.winner} wins by ${state.outcome.reason}): undo or start a new game`);
  if (page.thinking) return say("the engine is thinking: wait, or press Stop");
  if (!humanToMove()) return say("it is the engine's turn: press “Engine, move now”");
  if (page.selected) {
    const from = page.selected;
    const moves = state.legal.filter((m) => m.from === from && m.to === cell);
    if (moves.length === 1) return play(moves[0].move);
    if (moves.length > 1) return showChoice(moves);
    clearSelection();
    if (cell === from) return;
    if (tokenAt(cell) === state.turn) return select(cell);
    if (tokenAt(cell)) return;
    return play(cell);  // the server explains an illegal placement
  }
  if (tokenAt(cell) === state.turn) return select(cell);
  return play(cell);
}

function select(cell) {
  const swipes = page.state.legal.filter((m) => m.from === cell);
  if (!swipes.length) return say(`the token on ${cell} has no legal swipe`);
  page.selected = cell;
  highlightSelection();
  say(`${cell} picked: click a highlighted cell (${[...new Set(swipes.map((m) => m.to))].join(" ")})`);
}

// Mark the picked token and its destinations on the board drawn now (again after a
// running analysis redraws the board).
function highlightSelection() {
  const cell = page.selected;
  if (!cell) return;
  polygonOf(cell).classList.add("selected");
  for (const move of page.state.legal.filter((m) => m.from === cell)) {
    cellElements(move.to).forEach((e) => e.classList.add("dest"));
  }
}

function clearSelection() {
  page.selected = null;
  $("#board").querySelectorAll(".selected, .dest, .flip-preview").forEach((e) => e.classList.remove("selected", "dest", "flip-preview"));
}

function showChoice(moves) {
  $("#choice-text").textContent = `${moves[0].from}-${moves[0].to} can flip ${moves.length} groups: which one?`;
  const buttons = $("#choice-buttons");
  buttons.innerHTML = "";
  for (const move of moves) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "flip-choice";
    button.dataset.move = move.move;
    button.textContent = `${move.move}: flip ${move.flips.join(" ")} (${move.flips.length})`;
    const preview = (on) => move.flips.forEach((c) => cellElements(c).forEach((e) => e.classList.toggle("flip-preview", on)));
    button.addEventListener("mouseenter", () => preview(true));
    button.addEventListener("mouseleave", () => preview(false));
    button.addEventListener("click", () => play(move.move));
    buttons.append(button);
  }
  $("#choice").hidden = false;
}

function hideChoice() { $("#choice").hidden = true; }

async function play(move) {
  await attempt(async () => {
    render(await api("POST", gamePath("/moves"), { move }));
    if ($("#mode").value === "engine" && !page.state.outcome && !humanToMove()) await engineMove();
  });
}

// ----- the engine ---------------------------------------------------------------------------------
async function engineMove() {
  if (page.thinking || page.state.outcome) return;
  page.thinking = true;
  await stopAnalysis();
  $("#stop").hidden = false;
  $("#status").textContent = statusText(page.state);
  try {
    await stream(gamePath("/engine-move"), { engine: $("#engine").value, time: Number($("#time").value) }, (name, data) => {
      if (name === "progress") $("#status").textContent = `the engine is thinking… ${data.best} ${data.score_text} (depth ${data.depth}, ${data.nodes} nodes)`;
      if (name === "error") say(data.error);
      if (name === "done" && data.state) { page.thinking = false; render(data.state); }
    });
  } catch (error) {
    say(error.message);
  } finally {
    page.thinking = false;
    $("#stop").hidden = true;
    render(await api("GET", gamePath()));
  }
}

// ----- analysis -------------------------------------------------------------------------------------
function clearAnalysis() {
  page.analysis = null;
  $("#score").textContent = "–";
  $("#analysis-info").textContent = "";
  $("#top-moves tbody").innerHTML = "";
  $("#pv").textContent = "";
  $("#threats").innerHTML = "";
  $("#evalfill").style.height = "50%";
}

function showAnalysis(data) {
  if (!page.analysis || page.state.position !== page.analysis.position) return;
  page.analysis.svg = data.svg;
  $("#board").innerHTML = data.svg;
  highlightSelection();  // a token picked while the analysis runs stays picked
  $("#evalfill").style.height = `${(100 * data.green_share).toFixed(1)}%`;
  $("#score").textContent = `${data.best} ${data.score_text}`;
  $("#analysis-info").textContent = `${data.engine}, depth ${data.depth}, ${data.nodes.toLocaleString()} nodes, ${data.seconds.toFixed(1)} s${data.final ? " (done)" : ""}`;
  $("#top-moves tbody").innerHTML = "";
  for (const row of data.top) {
    const tr = document.createElement("tr");
    for (const text of [row.move, row.score_text, row.line.join(" ")]) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.append(td);
    }
    $("#top-moves tbody").append(tr);
  }
  $("#pv").textContent = data.pv.length ? `line: ${data.pv.join(" ")}` : "";
}

function showThreats(data) {
  const list = $("#threats");
  list.innerHTML = "";
  for (const t of data.threats) {
    const item = document.createElement("li");
    const when = t.to_move ? "can flip now" : "threatens";
    item.textContent = `${t.attacker} ${when} ${t.side} ${t.group.join(" ")} (${t.tokens}): ${t.moves.slice(0, 4).join(", ")}${t.moves.length > 4 ? "…" : ""}`;
    list.append(item);
  }
  if (!data.threats.length) list.innerHTML = "<li>no threats</li>";
  for (const e of data.eliminations) {
    const item = document.createElement("li");
    item.textContent = `${e.side} eliminates with ${e.move}${e.to_move ? " now" : " if it were its turn"}`;
    list.append(item);
  }
}

async function analyse() {
  if (page.state.outcome) return say("the game is over: nothing to analyse");
  if (page.analysisDone) await stopAnalysis();
  page.analysing = true;
  page.analysis = { position: page.state.position, svg: null };
  $("#analyse").hidden = true;
  $("#stop-analysis").hidden = false;
  const body = { engine: $("#engine").value, time: Number($("#analysis-time").value), top: 5 };
  page.analysisDone = stream(gamePath("/analysis"), body, (name, data) => {
    if (name === "start") showThreats(data);
    if (name === "progress" || name === "done") showAnalysis(data);
    if (name === "error") say(data.error);
  }).catch((error) => say(error.message)).finally(() => {
    page.analysing = false;
    page.analysisDone = null;
    $("#analyse").hidden = false;
    $("#stop-analysis").hidden = true;
  });
  await Promise.resolve();
}

async function stopAnalysis() {
  const done = page.analysisDone;
  if (!done) return;
  page.analysing = false;
  await api("POST", gamePath("/stop")).catch(() => {});
  await done;
}

async function restartAnalysis() {
  if (page.state.outcome) { await stopAnalysis(); return; }
  await analyse();
}

// ----- game set-up, navigation, position and record ----------------------------------------------
async function newGame() {
  await stopAnalysis();
  clearAnalysis();
  render(await api("POST", gamePath("/new"), { size: Number($("#size").value) }));
  if ($("#mode").value === "engine" && !humanToMove()) await engineMove();
}

function setMode() {
  document.body.classList.toggle("engine-people", $("#mode").value === "people");
}

function toggleEditing() {
  page.editing = !page.editing;
  document.body.classList.toggle("editing", page.editing);
  $("#edit").setAttribute("aria-pressed", String(page.editing));
  $("#edit").textContent = page.editing ? "Done editing" : "Edit the board";
  $("#status").textContent = statusText(page.state);
}

function wire() {
  // A cell is clicked when the pointer goes down and up on it. Not the "click" event: a
  // running analysis redraws the board, and a redraw between press and release left
  // the browser no common element to click, so the click was lost. The cell's name
  // survives the redraw.
  const cellOf = (event) => {
    const target = event.target.closest("[data-cell]");
    return target ? target.dataset.cell : null;
  };
  let pressed = null;
  $("#board").addEventListener("pointerdown", (event) => {
    pressed = event.button === 0 ? cellOf(event) : null;
  });
  $("#board").addEventListener("pointerup", (event) => {
    const cell = cellOf(event);
    if (cell && cell === pressed) onCell(cell);
    pressed = null;
  });
  const on = (id, action) => $(id).addEventListener("click", () => attempt(action));
  on("#new-game", newGame);
  on("#engine-move", engineMove);
  on("#stop", () => api("POST", gamePath("/stop")));
  on("#undo", async () => render(await api("POST", gamePath("/undo"))));
  on("#redo", async () => render(await api("POST", gamePath("/redo"))));
  on("#first", async () => render(await api("POST", gamePath("/goto"), { ply: 0 })));
  on("#last", async () => render(await api("POST", gamePath("/goto"), { ply: page.state.ply + page.state.redo.length })));
  on("#analyse", analyse);
  on("#stop-analysis", stopAnalysis);
  on("#choice-cancel", async () => { hideChoice(); clearSelection(); });
  on("#load-position", async () => render(await api("POST", gamePath("/position"), { position: $("#position").value })));
  on("#show-record", async () => { $("#record").value = await api("GET", gamePath("/record")); });
  on("#load-record", async () => render(await api("POST", gamePath("/record"), { record: $("#record").value })));
  on("#edit", toggleEditing);
  $("#edit-turn").addEventListener("change", () => attempt(async () => {
    const turn = $("#edit-turn").value;
    if (turn !== page.state.turn) render(await api("POST", gamePath("/edit"), { cell: null, piece: null, turn }));
  }));
  $("#mode").addEventListener("change", setMode);
  $("#position").addEventListener("keydown", (event) => { if (event.key === "Enter") $("#load-position").click(); });
  // the arrow keys walk through the game, as on analysis boards
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, textarea, select")) return;
    const keys = { ArrowLeft: "#undo", ArrowRight: "#redo", Home: "#first", End: "#last", Escape: "#choice-cancel" };
    if (keys[event.key]) { event.preventDefault(); $(keys[event.key]).click(); }
  });
}

// Each tab keeps its own game (sessionStorage is per tab); a reload finds it again.
async function start() {
  wire();
  setMode();
  const { engines } = await api("GET", "/api/engines");
  $("#engine").innerHTML = "";
  for (const engine of engines) $("#engine").append(new Option(engine.name, engine.name));
  engines.forEach((engine, i) => { $("#engine").options[i].title = engine.description; });
  let state = null;
  const id = sessionStorage.getItem("hinge-game");
  if (id) state = await api("GET", `/api/games/${id}`).catch(() => null);
  if (!state) state = await api("POST", "/api/games", { size: 6 });
  sessionStorage.setItem("hinge-game", state.id);
  render(state);
  document.body.dataset.ready = "true";
}

start().catch((error) => say(error.message));
