// The page of `hinge-fast serve`: every rule lives on the server (JSON API, docs/web.md);
// this script only turns clicks into requests and answers into the page.
"use strict";

const $ = (selector) => document.querySelector(selector);
const page = {
  state: null,          // the game as the server last described it
  selected: null,       // the cell of the token picked for a swipe
  thinking: false,      // the engine is choosing a move
  analysis: null,       // {position, svg} of the running or last analysis
  analysisDone: null,   // promise of the running analysis stream's end
  analyseSeq: 0,        // the latest analysis asked for (an older request gives way)
  following: false,     // analysis starts again on each new position ("follow the moves")
  editing: false,
  busy: false,          // a move is on its way to the server
  lastPlaced: null,     // {cell, time} of the last placement made by a click
  turned: false,        // the board is drawn upside down
  afterMove: null,      // async () => whether the engine may reply to the move just played (puzzles.js)
  afterRender: null,    // (state) => anything else to show of a new state (puzzles.js)
  slowMs: 1500,         // a wait for the engine longer than this says what is going on
  down: false,          // the server did not answer the last request
  stopping: false,      // the server said it is stopping: only Retry says otherwise
};
//: Nodes of the proof asked for with each analysis.
const ANALYSIS_PROOF_NODES = 20000;
//: Recent games kept on this browser, newest first.
const RECENT_KEY = "hinge-fast-games";
const RECENT_MOST = 20;
//: A second click on the cell just played within this many ms is the rest of a double click.
const DOUBLE_CLICK_MS = 600;
//: The player's settings, kept on this browser: they outlast a reload, the rules page and new games.
const SETTINGS_KEY = "hinge-fast-settings";
//: Height, in the picture's units, of one line of text under the board, and the gap
//: above the first (hinge_fast.tools.svg): the lines are shown under the board instead.
const SVG_LINE = 30, SVG_TEXT_GAP = 9.6;
//: A finger or a mouse: the words of the hints follow.
const VERB = window.matchMedia && window.matchMedia("(pointer: coarse)").matches ? "tap" : "click";

// ----- talking to the server -----------------------------------------------------------------
class ApiError extends Error {
  constructor(message, status) { super(message); this.status = status; }
}

//: What the page says when the server does not answer, or answers that the token is not its own.
const NOT_ANSWERING = "The server is not answering: it was stopped, or the connection is lost. " +
  "Start it again (hinge-fast serve) and press Retry.";
const RESTARTED = "The server was started again, with a new access token: open the address it printed " +
  "(it ends in ?token=…). Games of its earlier run are gone; this page shows the last position it had.";

// fetch, with a network failure (no server) said as the page says it, and the banner shown
async function reach(path, options) {
  let response;
  try {
    response = await fetch(path, options);
  } catch (error) {
    connectionLost(NOT_ANSWERING);
    throw new ApiError("the server is not answering", 0);
  }
  if (response.status === 403 && page.state) {
    const data = await response.clone().json().catch(() => ({}));
    if ((data.error || "").startsWith("no access token")) connectionLost(RESTARTED);
  } else if (response.status === 503) {
    // a request that came in as the server began to stop: it is going away
    const data = await response.clone().json().catch(() => ({}));
    if (data.server_stopping) serverStopping();
  } else if (page.down && !page.stopping) {
    connectionBack();  // an answer: the server is back
  }
  return response;
}

async function api(method, path, body) {
  const response = await reach(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (response.headers.get("content-type") || "").includes("json");
  const data = json ? await response.json() : await response.text();
  if (!response.ok) throw new ApiError(json ? data.error : data, response.status);
  return data;
}

// The connection banner: the server is gone, or came back as another run.
function connectionLost(text) {
  page.down = true;
  $("#connection-text").textContent = text;
  $("#connection").hidden = false;
  $("#connection-retry").hidden = text !== NOT_ANSWERING;
}

function serverStopping() {
  page.stopping = true;
  connectionLost(NOT_ANSWERING);
}

function connectionBack() {
  page.down = false;
  $("#connection").hidden = true;
}

// Retry: ask the server for this game again; the banner goes if it answers.
async function retry() {
  page.stopping = false;
  const state = await api("GET", page.state ? gamePath() : "/api/engines").catch((error) => {
    if (error.status === 404 && page.state) { showMissing(page.state.id); return null; }
    throw error;
  });
  if (page.state && state) render(state);
}

// POST a request answered with server-sent events; onEvent(name, data) for each.
async function stream(path, body, onEvent) {
  const response = await reach(path, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  if (!response.ok) throw new ApiError((await response.json()).error, response.status);
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    let read;
    try {
      read = await reader.read();
    } catch (error) {  // the connection broke mid-stream: the server went away
      connectionLost(NOT_ANSWERING);
      throw new ApiError("the server is not answering", 0);
    }
    const { value, done } = read;
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
const capital = (text) => text.charAt(0).toUpperCase() + text.slice(1);

// An error: the server's one-line message, in the error style.
function say(text) { $("#message").textContent = text || ""; }
// A hint: guidance near the board, in its own style; cleared by the next move.
function hint(text) { $("#hint").textContent = text || ""; }

// Run an action that may fail with the server's error text; show that text.
async function attempt(action) {
  try { say(""); await action(); } catch (error) { say(error.message); }
}

// ----- drawing ----------------------------------------------------------------------------------
function render(state) {
  const before = page.state;
  const changed = !page.state || page.state.id !== state.id || page.state.position !== state.position ||
    page.state.ply !== state.ply || !page.state.outcome !== !state.outcome;
  page.state = state;
  if (changed) {
    page.selected = null;
    hideChoice();
  }
  const showAnalysis = page.analysis && page.analysis.position === state.position && page.analysis.svg;
  drawBoard(showAnalysis ? page.analysis.svg : state.svg);  // the same position again: a token picked stays picked
  $("#status").textContent = statusText(state);
  if (document.activeElement !== $("#position")) {
    $("#position").value = state.position;
    $("#position").removeAttribute("aria-invalid");
  }
  $("#size").value = String(state.size);
  $("#edit-turn").value = state.turn;
  $("#download-record").href = gamePath("/record");
  renderMoves(state);
  renderBanner(state);
  // the game goes on (a resignation or a last move taken back): the bar shows the
  // analysis of this position if there is one, else nothing
  if (!state.outcome && $("#evalbar").className === "over") {
    const data = showAnalysis && page.analysis.data;
    if (data) setBar("eval", data.green.green_share, data.green.text);
    else setBar("none", 0.5, "no evaluation: press Analyse");
  }
  remember(state);
  if (changed) {
    hint("");
    say("");
    if (!showAnalysis) clearAnalysis();
    if (before && before.id === state.id && state.ply === before.ply + 1) { animateFlips(state); beep(); }
    // a new position gets a new analysis, unless the engine is about to move
    if (page.following && $("#live").checked && !page.thinking && !page.editing) {
      if (state.outcome) stopAnalysis();
      else if (humanToMove()) restartAnalysis();
    }
  }
  if (page.afterRender) page.afterRender(state);
}

function statusText(state) {
  if (state.outcome) return `${state.outcome.winner} wins by ${state.outcome.reason}`;
  if (page.thinking) return `${state.turn} to move: the engine is thinking…`;
  if (page.editing) return `editing: ${state.turn} to move`;
  return `${state.turn} to move`;
}

// The board picture, turned around when asked, sized, with the picked token marked.
function drawBoard(svg) {
  $("#board").innerHTML = svg;
  moveLegend();
  if (page.turned) turnPicture();
  fitLabels();
  highlightSelection();
}

// The lines of text under the board picture (the side to move, the best move, the
// legend) go to the box under the board, whose height is fixed: the picture is the
// board alone, the same size however many lines there are, so the board never moves.
function moveLegend() {
  const svg = $("#board svg");
  const legend = $("#legend");
  legend.innerHTML = "";
  if (!svg) return;
  const lines = [...svg.querySelectorAll("g[class^='text-']")];
  const view = svg.viewBox.baseVal;
  const height = view.height - (lines.length ? SVG_LINE * lines.length + SVG_TEXT_GAP : 0);
  svg.setAttribute("viewBox", `${view.x} ${view.y} ${view.width} ${height}`);
  svg.setAttribute("height", String(Math.round(Number(svg.getAttribute("width")) * height / view.width)));
  const background = svg.querySelector("rect");
  if (background) background.setAttribute("height", String(height));
  for (const group of lines) {
    const text = group.querySelector("text");
    const words = text ? text.textContent : "";
    const y = text ? Number(text.getAttribute("y")) : 0;
    if (text) text.remove();
    const row = document.createElement("div");
    row.className = `line ${(group.getAttribute("class") || "").replace("text-", "")}`;
    const mark = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    mark.setAttribute("class", "mark");
    mark.setAttribute("viewBox", `8 ${y - 17} 40 22`);
    mark.append(group);
    const span = document.createElement("span");
    span.textContent = words;
    row.append(mark, span);
    legend.append(row);
  }
}

// Turn the board (not the text under it) half a turn; every letter stays upright.
function turnPicture() {
  const svg = $("#board svg");
  if (!svg) return;
  const group = document.createElementNS("http://www.w3.org/2000/svg", "g");
  group.setAttribute("class", "turned");
  for (const child of [...svg.children]) {
    const kind = child.getAttribute("class") || "";
    if (child.tagName === "title" || child.tagName === "rect" || kind.startsWith("text-")) continue;
    group.append(child);
  }
  svg.insertBefore(group, svg.querySelector("g[class^='text-']"));
  const box = group.getBBox();
  group.setAttribute("transform", `rotate(180 ${box.x + box.width / 2} ${box.y + box.height / 2})`);
  for (const text of group.querySelectorAll("text")) {
    const b = text.getBBox();
    text.setAttribute("transform", `rotate(180 ${b.x + b.width / 2} ${b.y + b.height / 2})`);
  }
}

// Cells smaller than a finger's width on screen: the names inside them are hidden (too
// small to read) and the coordinates around the board drawn larger.
function fitLabels() {
  const svg = $("#board svg");
  if (!svg) return;
  const view = svg.viewBox.baseVal;
  const box = svg.getBoundingClientRect();
  const scale = Math.min(box.width / view.width, box.height / view.height);
  const cell = 24 * Math.sqrt(3) * scale;  // the picture's cell width, in screen pixels
  $("#board").classList.toggle("small", cell > 0 && cell < 28);
  $("#board").dataset.cellPx = cell.toFixed(1);
}

function renderMoves(state) {
  const list = $("#moves");
  list.innerHTML = "";
  const all = state.moves.concat(state.redo);
  all.forEach((move, i) => {
    // every move is one side's turn, numbered: the counts of the page are these numbers
    const item = document.createElement("li");
    item.className = moverAt(state, i);
    const number = document.createElement("span");
    number.className = "number";
    number.textContent = `${i + 1}.`;
    item.append(number);
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

// The side that plays the move after ``ply`` moves of the game.
function moverAt(state, ply) {
  const first = state.start.endsWith(" b") ? "blue" : "green";
  return ply % 2 === 0 ? first : (first === "green" ? "blue" : "green");
}

// The end of a game: the result, and what can be done next.
function renderBanner(state) {
  const banner = $("#banner");
  banner.hidden = !state.outcome;
  banner.classList.remove("green", "blue");
  if (!state.outcome) return;
  const { winner, reason } = state.outcome;
  banner.classList.add(winner);
  $("#banner-text").textContent = `${capital(winner)} wins by ${reason}.`;
  $("#banner-undo").textContent = reason === "resignation" ? "Take back the resignation"
    : takeBackTarget(state) < state.ply - 1 ? "Take back your last move" : "Take back the last move";
  $("#banner-undo").hidden = reason !== "resignation" && state.ply === 0;
  setBar("over", winner === "green" ? 1 : 0, `${capital(winner)} won by ${reason}`);
}

// The evaluation bar: "none" (grey, no evaluation), "eval" (Green's share) or "over".
function setBar(kind, share, text) {
  const bar = $("#evalbar");
  bar.className = kind;
  $("#evalfill").style.width = kind === "none" ? "50%" : `${(100 * share).toFixed(1)}%`;
  $("#evaltext").textContent = text;
  bar.setAttribute("aria-label", `evaluation: ${text}`);
}

function cellElements(cell) { return $("#board").querySelectorAll(`[data-cell="${cell}"]`); }
function polygonOf(cell) { return $("#board").querySelector(`polygon[data-cell="${cell}"]`); }
function tokenAt(cell) {
  const token = $("#board").querySelector(`circle.token[data-cell="${cell}"]`);
  return token ? (token.classList.contains("green") ? "green" : "blue") : null;
}

// The tokens the last move flipped turn over; not when the reader asked for less motion.
function animateFlips(state) {
  for (const cell of state.last_flipped) {
    const token = $("#board").querySelector(`circle.token[data-cell="${cell}"]`);
    if (token) token.classList.add("flip-anim");
  }
}

// A short click on each move, when "sound" is on (off by default).
let audio = null;
function beep() {
  if (!$("#sound").checked) return;
  try {
    audio = audio || new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = page.state.turn === "green" ? 520 : 660;
    gain.gain.setValueAtTime(0.12, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.12);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.12);
    document.body.dataset.sounds = String(Number(document.body.dataset.sounds || 0) + 1);
  } catch (error) { /* no audio on this browser: the game goes on silently */ }
}

// ----- the player's settings ----------------------------------------------------------------------
function saveSettings() {
  const settings = {
    mode: $("#mode").value, side: $("#side").value, engine: $("#engine").value, time: $("#time").value,
    analysisTime: $("#analysis-time").value, size: $("#size").value, turned: page.turned, sound: $("#sound").checked,
  };
  try { localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings)); } catch { /* storage full or off */ }
}

function loadSettings() {
  let settings = {};
  try { settings = JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}") || {}; } catch { settings = {}; }
  const put = (id, value) => {
    const box = $(id);
    if (typeof value !== "string") return;
    if (box.tagName === "SELECT" && ![...box.options].some((o) => o.value === value)) return;
    box.value = value;
  };
  put("#mode", settings.mode);
  put("#side", settings.side);
  put("#engine", settings.engine);
  put("#time", settings.time);
  put("#analysis-time", settings.analysisTime);
  put("#size", settings.size);
  page.turned = settings.turned === true;
  $("#sound").checked = settings.sound === true;
  $("#flip").setAttribute("aria-pressed", String(page.turned));
  setMode();
}

// ----- recent games and links -------------------------------------------------------------------
function recentGames() {
  try { return JSON.parse(localStorage.getItem(RECENT_KEY) || "[]").filter((g) => g && g.id); } catch { return []; }
}

function saveRecent(list) {
  try { localStorage.setItem(RECENT_KEY, JSON.stringify(list.slice(0, RECENT_MOST))); } catch { /* storage full or off */ }
}

// Keep this game at the top of the recent list, point the address and the links at it.
function remember(state) {
  const link = `/?game=${encodeURIComponent(state.id)}`;
  if (location.pathname + location.search !== link) history.replaceState(null, "", link);
  sessionStorage.setItem("hinge-game", state.id);
  $("#rules-link").href = `/rules?game=${encodeURIComponent(state.id)}`;
  $("#game-link").href = link;
  $("#game-link").textContent = new URL(link, location.href).href;
  const entry = {
    id: state.id, size: state.size, moves: state.ply, turn: state.turn,
    result: state.outcome ? `${state.outcome.winner} won` : null, time: Date.now(),
  };
  const old = recentGames();
  const same = old.find((g) => g.id === state.id);
  if (same && same.moves === entry.moves && same.turn === entry.turn && same.result === entry.result) entry.time = same.time;
  saveRecent([entry, ...old.filter((g) => g.id !== state.id)]);
  renderRecent();
}

function forget(id) { saveRecent(recentGames().filter((g) => g.id !== id)); }

function renderRecent() {
  const list = $("#recent");
  list.innerHTML = "";
  for (const game of recentGames()) {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = `/?game=${encodeURIComponent(game.id)}`;
    link.dataset.game = game.id;
    const when = new Date(game.time).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
    link.textContent = `side ${game.size}, ${game.moves} move${game.moves === 1 ? "" : "s"}, ` +
      `${game.result || `${game.turn} to move`} (${when})`;
    item.append(link);
    if (page.state && game.id === page.state.id) { item.classList.add("current"); item.append(" this game"); }
    list.append(item);
  }
}

// ----- clicking on the board -------------------------------------------------------------------
function humanToMove() {
  const state = page.state;
  if ($("#mode").value === "people") return true;
  return state.turn === $("#side").value;
}

// Against the engine, taking back goes back to the player's last turn (their move and
// the engine's reply at once); between two people, one move. The ply to go back to.
function takeBackTarget(state) {
  if ($("#mode").value !== "engine") return state.ply - 1;
  const you = $("#side").value;
  let ply = state.ply - 1;
  while (ply > 0 && moverAt(state, ply) !== you) ply -= 1;
  return ply;
}

// Why a click on the board cannot play now, or null.
function notNow() {
  const state = page.state;
  if (state.outcome) {
    const { winner, reason } = state.outcome;
    const back = reason === "resignation" ? "the resignation" : "the last move";
    return `the game is over (${winner} wins by ${reason}): take back ${back} or start a new game`;
  }
  if (page.thinking) return "the engine is thinking: wait, or press Stop";
  if (!humanToMove()) return "it is the engine's turn: press “Engine, move now”";
  return null;
}

async function onCell(cell) {
  if (page.busy) return;  // the move just clicked is on its way
  const last = page.lastPlaced;
  if (last && last.cell === cell && performance.now() - last.time < DOUBLE_CLICK_MS) return;
  say("");
  // the server said it is stopping: nothing on the board can reach it until Retry
  if (page.stopping) return say("the server is not answering");
  if (page.editing) {
    const piece = document.querySelector("input[name=piece]:checked").value || null;
    return attempt(async () => render(await api("POST", gamePath("/edit"), { cell, piece })));
  }
  const why = notNow();
  if (why) return hint(why);
  const state = page.state;
  if (page.selected) {
    const from = page.selected;
    const moves = state.legal.filter((m) => m.from === from && m.to === cell);
    if (moves.length === 1) return play(moves[0].move, cell);
    if (moves.length > 1) return showChoice(moves);
    clearSelection();
    hint("");
    if (cell === from) return;
    if (tokenAt(cell) === state.turn) return select(cell);
    if (tokenAt(cell)) return;
    return play(cell, cell);  // the server explains an illegal placement
  }
  if (tokenAt(cell) === state.turn) return select(cell);
  return play(cell, cell);
}

function select(cell) {
  const swipes = page.state.legal.filter((m) => m.from === cell);
  if (!swipes.length) return hint(`the token on ${cell} has no legal swipe`);
  page.selected = cell;
  highlightSelection();
  hint(`${cell} picked: ${VERB} a highlighted cell (${[...new Set(swipes.map((m) => m.to))].join(" ")})`);
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

// Hovering shows, faintly, where a move can go: the cell itself for a legal placement,
// the destinations of one of the mover's tokens.
function showLegal(cell) {
  $("#board").querySelectorAll(".legal").forEach((e) => e.classList.remove("legal"));
  if (!cell || !page.state || page.editing || page.selected || notNow()) return;
  const legal = page.state.legal;
  const targets = tokenAt(cell) === page.state.turn
    ? legal.filter((m) => m.from === cell).map((m) => m.to)
    : legal.filter((m) => m.from === null && m.to === cell).map((m) => m.to);
  for (const to of targets) { const polygon = polygonOf(to); if (polygon) polygon.classList.add("legal"); }
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

async function play(move, cell = null) {
  const before = page.state.ply;
  page.busy = true;
  try {
    await attempt(async () => {
      render(await api("POST", gamePath("/moves"), { move }));
      if (cell) page.lastPlaced = { cell, time: performance.now() };
    });
  } finally {
    page.busy = false;
  }
  if (page.state.ply === before) return;  // the move was refused
  if (page.afterMove && !(await page.afterMove())) return;
  if ($("#mode").value === "engine" && !page.state.outcome && !humanToMove()) await engineMove();
}

// ----- the engine ---------------------------------------------------------------------------------
async function engineMove() {
  if (page.thinking || page.state.outcome) return;
  page.thinking = true;
  await stopAnalysis();
  $("#stop").hidden = false;
  $("#status").textContent = statusText(page.state);
  const wait = longWait(page.state.size, (text) => { $("#status").textContent = `the engine is thinking… ${text}`; });
  let answered = false;  // the stream's last event brought the game: nothing to fetch after it
  try {
    await stream(gamePath("/engine-move"), { engine: $("#engine").value, time: Number($("#time").value) }, (name, data) => {
      wait.event(name, data);
      if (name === "progress") {
        $("#status").textContent = `the engine is thinking… best so far ${data.best} (${data.green.text}, depth ${data.depth})`;
      }
      if (name === "error") say(data.error);
      if (name === "done" && data.state) { page.thinking = false; answered = true; render(data.state); }
      if (name === "done" && data.server_stopping) serverStopping();
    });
  } catch (error) {
    say(error.message);
  } finally {
    wait.end();
    page.thinking = false;
    $("#stop").hidden = true;
    // Without the game from the stream, fetch it. With it, a fetch could come back after
    // the player's next action (a take-back) and show the game as it was before.
    if (!answered) {
      try {
        render(await api("GET", gamePath()));
      } catch (error) {  // the server is gone: the page says so (the banner), and no longer waits
        say(error.message);
        $("#status").textContent = statusText(page.state);
      }
    }
  }
}

// A wait for the engine's first result: if it is long, say why. The server says when it
// prepares the engine for the board's side (the first search on a side, each run of
// the server: its kernels are loaded, or compiled the first time); ``show(text)`` says
// it, with the seconds waited so far, after ``page.slowMs``.
function longWait(size, show) {
  const started = performance.now();
  let stage = "waiting", timer = null;
  const tick = () => {
    const seconds = Math.round((performance.now() - started) / 1000);
    if (stage === "preparing") show(`preparing the engine for side ${size} (done once per board side): ${seconds} s`);
    else if (stage === "waiting") show(`waiting for the server: ${seconds} s`);
  };
  timer = setTimeout(function again() { tick(); timer = setTimeout(again, 1000); }, page.slowMs);
  return {
    event(name, data) {
      if (name === "stage") stage = data.stage;
      if (name === "progress" || name === "done" || name === "error" || name === "proof") stage = "searching";
      if (name === "start" && stage === "waiting") stage = "started";
    },
    end() { clearTimeout(timer); },
  };
}

// The engine moves now if it is its turn (after the player changed sides, say).
async function engineIfItsTurn() {
  if (!page.state) return;
  $("#status").textContent = statusText(page.state);
  if ($("#mode").value === "engine" && !page.state.outcome && !page.editing && !humanToMove()) await engineMove();
  else if (page.following && $("#live").checked && !page.analysisDone && !page.state.outcome) await restartAnalysis();
}

// ----- analysis -------------------------------------------------------------------------------------
function clearAnalysis() {
  page.analysis = null;
  $("#best").textContent = "–";
  $("#score").textContent = "–";
  $("#analysis-info").textContent = "";
  $("#top-moves tbody").innerHTML = "";
  $("#pv").textContent = "";
  $("#proof").textContent = "";
  $("#threats").innerHTML = "";
  if (page.state && page.state.outcome) renderBanner(page.state);
  else setBar("none", 0.5, "no evaluation: press Analyse");
}

function showAnalysis(data) {
  if (!page.analysis || page.state.position !== page.analysis.position) return;
  page.analysis.svg = data.svg;
  page.analysis.data = data;
  drawBoard(data.svg);  // a token picked while the analysis runs stays picked
  setBar("eval", data.green.green_share, data.green.text);
  $("#best").textContent = data.best || "none";
  $("#score").textContent = data.green.text;
  $("#analysis-info").textContent = `${data.engine}, depth ${data.depth}, ${data.nodes.toLocaleString()} nodes, ${data.seconds.toFixed(1)} s${data.final ? " (done)" : ""}`;
  $("#top-moves tbody").innerHTML = "";
  for (const row of data.top) {
    const tr = document.createElement("tr");
    for (const text of [row.move, row.green_text]) {
      const td = document.createElement("td");
      td.textContent = text;
      tr.append(td);
    }
    // the line under its move, the panel's whole width, broken only between moves
    const line = document.createElement("tr");
    line.className = "line";
    const td = document.createElement("td");
    td.colSpan = 2;
    td.append(...movesText(row.line));
    line.append(td);
    $("#top-moves tbody").append(tr, line);
  }
  $("#pv").innerHTML = "";
  if (data.pv.length) $("#pv").append("line: ", ...movesText(data.pv));
}

// Moves as text that wraps between moves only: each move unbroken, spaces between.
function movesText(moves) {
  const out = [];
  moves.forEach((move, i) => {
    if (i) out.push(" ");
    const span = document.createElement("span");
    span.textContent = move;
    out.push(span);
  });
  return out;
}

// "Stop analysis" shows while an analysis runs, and while the analysis follows the
// moves (between two analyses too): it stops both.
function showAnalysisButtons() {
  const on = Boolean(page.analysisDone) || (page.following && $("#live").checked);
  $("#analyse").hidden = on;
  $("#stop-analysis").hidden = !on;
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
  const seq = ++page.analyseSeq;
  if (page.analysisDone) await stopAnalysis(false);
  if (seq !== page.analyseSeq || page.thinking) return;  // a newer request, or the engine moves
  page.analysis = { position: page.state.position, svg: null, data: null };
  $("#analyse").hidden = true;
  $("#stop-analysis").hidden = false;
  const body = { engine: $("#engine").value, time: Number($("#analysis-time").value), top: 5, prove: ANALYSIS_PROOF_NODES };
  const analysed = page.analysis;
  const wait = longWait(page.state.size, (text) => {
    if (page.analysis === analysed && !analysed.data) $("#analysis-info").textContent = text;
  });
  const done = stream(gamePath("/analysis"), body, (name, data) => {
    wait.event(name, data);
    if (name === "start") { showThreats(data); $("#proof").textContent = "proving…"; }
    if (name === "proof") showProof(data);
    if (name === "progress" || name === "done") showAnalysis(data);
    if (name === "done" && data.server_stopping) serverStopping();
    if (name === "error") say(data.error);
  }).catch((error) => say(error.message)).finally(() => {
    wait.end();
    if (page.analysisDone !== done) return;
    page.analysisDone = null;
    showAnalysisButtons();
  });
  page.analysisDone = done;
}

// Stop the running analysis and wait for its end; ``cancel``: a pending request too.
async function stopAnalysis(cancel = true) {
  if (cancel) page.analyseSeq += 1;
  const done = page.analysisDone;
  if (!done) return;
  await api("POST", gamePath("/stop")).catch(() => {});
  await done;
}

async function restartAnalysis() {
  if (page.state.outcome) { await stopAnalysis(); return; }
  await analyse();
}

// ----- game set-up, navigation, position and record ----------------------------------------------
// Ask before leaving a game under way; the game itself stays under "Recent games".
function confirmNewGame(question = "Start a new game?", yes = "Start a new game") {
  const state = page.state;
  if (!state || state.outcome || state.ply + state.redo.length === 0) return Promise.resolve(true);
  const dialog = $("#confirm-new");
  const moves = state.ply + state.redo.length;
  $("#confirm-text").textContent = `${question} This one (${moves} move${moves === 1 ? "" : "s"}) ` +
    "stays under “Recent games on this browser” while the server runs.";
  $("#confirm-yes").textContent = yes;
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true });
    dialog.returnValue = "";
    dialog.showModal();
  });
}

async function newGame() {
  if (!(await confirmNewGame())) return;
  await startGame({ size: Number($("#size").value) });
}

// A new game on the server (``body``: its side, a position or a record), shown, and the
// engine moves if it is its turn. The game before stays under the recent games.
async function startGame(body) {
  const state = await api("POST", "/api/games", body);  // refused: nothing changes
  await stopAnalysis();
  page.analysis = null;
  if (page.editing) toggleEditing();
  render(state);
  $("#missing").hidden = true;
  document.body.classList.remove("no-game");
  await engineIfItsTurn();
}

async function resign() {
  if (page.state.outcome) return hint("the game is over already");
  if (page.thinking) await api("POST", gamePath("/stop")).catch(() => {});
  const side = $("#mode").value === "engine" ? $("#side").value : page.state.turn;
  await stopAnalysis();
  render(await api("POST", gamePath("/resign"), { side }));
}

async function takeBack() {
  const state = page.state;
  if (state.outcome && state.outcome.reason === "resignation") {
    render(await api("POST", gamePath("/goto"), { ply: state.ply }));
    return;
  }
  if (state.ply === 0) throw new ApiError("no move to take back", 400);
  const ply = takeBackTarget(state);
  if ($("#mode").value === "engine" && moverAt(state, ply) !== $("#side").value) {
    throw new ApiError("no move of yours to take back", 400);
  }
  render(await api("POST", gamePath("/goto"), { ply }));
}

// A position or a record loaded: a new game from it (asked first, as New game does; the
// game before stays under the recent games). A rejected text stays in its box, marked,
// with the reason; the game is unchanged.
async function loadFrom(body, box) {
  if (!(await confirmNewGame("Load this as a new game?", "Load it as a new game"))) return;
  try {
    await startGame(body);
    box.removeAttribute("aria-invalid");
  } catch (error) {
    box.setAttribute("aria-invalid", "true");
    throw error;
  }
}

function setMode() {
  document.body.classList.toggle("engine-people", $("#mode").value === "people");
}

// Editing the board starts a new game from the position on screen when this game has
// moves (asked first): the game played stays whole under the recent games.
async function startEditing() {
  if (page.editing) { toggleEditing(); return; }
  const state = page.state;
  if (state.ply + state.redo.length > 0) {
    if (!(await confirmNewGame("Edit the board as a new game?", "Edit it as a new game"))) return;
    await startGame({ position: state.position });
  }
  toggleEditing();
}

function toggleEditing() {
  page.editing = !page.editing;
  document.body.classList.toggle("editing", page.editing);
  $("#edit").setAttribute("aria-pressed", String(page.editing));
  $("#edit").textContent = page.editing ? "Done editing" : "Edit the board";
  $("#status").textContent = statusText(page.state);
}

function toggleTurned() {
  page.turned = !page.turned;
  $("#flip").setAttribute("aria-pressed", String(page.turned));
  saveSettings();
  drawBoard(page.analysis && page.analysis.svg && page.analysis.position === page.state.position ? page.analysis.svg : page.state.svg);
}

function toggleZoom() {
  const on = !$("#board").classList.contains("zoomed");
  $("#board").classList.toggle("zoomed", on);
  $("#zoom").setAttribute("aria-pressed", String(on));
  fitLabels();
}

function wire() {
  // A cell is clicked when the pointer goes down and up on it. Not the "click" event: a
  // running analysis redraws the board, and a redraw between press and release left
  // the browser no common element to click, so the click was lost. The cell's name
  // survives the redraw. Pressing on one of the mover's tokens and letting go on
  // another cell is a swipe by dragging.
  const cellOf = (event) => {
    const target = event.target.closest("[data-cell]");
    return target ? target.dataset.cell : null;
  };
  let pressed = null;
  $("#board").addEventListener("pointerdown", (event) => {
    pressed = event.button === 0 ? cellOf(event) : null;
    // a finger that starts a drag on a token must not scroll the page
    if (pressed && page.state && tokenAt(pressed) === page.state.turn) event.preventDefault();
  });
  $("#board").addEventListener("pointerup", (event) => {
    // a touch's pointerup names where the finger lifted, not where it went down
    const under = document.elementFromPoint(event.clientX, event.clientY);
    const target = under && under.closest ? under.closest("#board [data-cell]") : null;
    const cell = target ? target.dataset.cell : cellOf(event);
    const from = pressed;
    pressed = null;
    if (!cell || !from) return;
    if (cell === from) return onCell(cell);
    if (page.state && !page.editing && tokenAt(from) === page.state.turn && !notNow()) {
      if (page.selected !== from) select(from);
      if (page.selected === from) onCell(cell);
    }
  });
  // On a touch screen the browser takes a finger's drag for a scroll (and cancels the
  // pointer) unless its touchstart is cancelled: a finger that starts on one of the
  // mover's tokens drags that token; elsewhere a drag scrolls the page as usual.
  $("#board").addEventListener("touchstart", (event) => {
    if (event.touches.length !== 1 || !page.state || page.editing || notNow()) return;
    const target = event.target.closest ? event.target.closest("[data-cell]") : null;
    if (target && tokenAt(target.dataset.cell) === page.state.turn) event.preventDefault();
  }, { passive: false });
  $("#board").addEventListener("pointerover", (event) => showLegal(cellOf(event)));
  $("#board").addEventListener("pointerleave", () => showLegal(null));
  // every button but "Start a new game" acts on the game on screen: none without one
  const on = (id, action) => $(id).addEventListener("click", () => {
    if (page.state || id === "#missing-new") attempt(action);
  });
  on("#new-game", newGame);
  on("#banner-new", newGame);
  on("#missing-new", newGame);
  on("#banner-undo", takeBack);
  on("#banner-record", async () => {
    $("#record").value = await api("GET", gamePath("/record"));
    $("#record").scrollIntoView({ block: "center" });
  });
  on("#engine-move", engineMove);
  on("#stop", () => api("POST", gamePath("/stop")));
  on("#resign", resign);
  on("#flip", toggleTurned);
  on("#zoom", toggleZoom);
  on("#undo", takeBack);
  on("#redo", async () => render(await api("POST", gamePath("/redo"))));
  on("#first", async () => render(await api("POST", gamePath("/goto"), { ply: 0 })));
  on("#last", async () => render(await api("POST", gamePath("/goto"), { ply: page.state.ply + page.state.redo.length })));
  on("#analyse", async () => { page.following = true; await analyse(); });
  on("#stop-analysis", async () => { page.following = false; showAnalysisButtons(); await stopAnalysis(); });
  on("#choice-cancel", async () => { hideChoice(); clearSelection(); });
  on("#load-position", () => loadFrom({ position: $("#position").value }, $("#position")));
  on("#show-record", async () => { $("#record").value = await api("GET", gamePath("/record")); });
  on("#load-record", () => loadFrom({ record: $("#record").value }, $("#record")));
  on("#edit", startEditing);
  on("#connection-retry", retry);
  $("#edit-turn").addEventListener("change", () => attempt(async () => {
    const turn = $("#edit-turn").value;
    if (turn === page.state.turn) return;
    if (!page.editing) await startEditing();
    if (!page.editing) { $("#edit-turn").value = page.state.turn; return; }  // not confirmed
    render(await api("POST", gamePath("/edit"), { cell: null, piece: null, turn }));
  }));
  $("#mode").addEventListener("change", () => { setMode(); saveSettings(); attempt(engineIfItsTurn); });
  $("#side").addEventListener("change", () => { saveSettings(); attempt(engineIfItsTurn); });
  for (const id of ["#engine", "#time", "#analysis-time", "#size", "#sound"]) $(id).addEventListener("change", saveSettings);
  $("#live").addEventListener("change", showAnalysisButtons);
  $("#position").addEventListener("keydown", (event) => { if (event.key === "Enter") $("#load-position").click(); });
  window.addEventListener("resize", fitLabels);
  // the arrow keys walk through the game, as on analysis boards
  document.addEventListener("keydown", (event) => {
    if (event.target.closest("input, textarea, select, dialog")) return;
    const keys = { ArrowLeft: "#undo", ArrowRight: "#redo", Home: "#first", End: "#last", Escape: "#choice-cancel" };
    if (keys[event.key]) { event.preventDefault(); $(keys[event.key]).click(); }
  });
}

// A game the server does not know (it was stopped since, or the link is mistyped):
// say so and offer a new one.
function showMissing(id) {
  forget(id);
  document.body.classList.add("no-game");
  $("#missing-text").textContent = `There is no game “${id}” on this server: it keeps games only while it ` +
    "runs (and the 256 most recently used), so this one was lost when it stopped, or the link is mistyped.";
  $("#missing").hidden = false;
  $("#status").textContent = "no game";
  renderRecent();
}

// The game to open: the one in the address (?game=ID), else this tab's last one, else a
// new one. A reload or a link finds its game again while the server runs.
async function start() {
  wire();
  for (const word of document.querySelectorAll(".verb")) {
    word.textContent = word.textContent === "Click" ? capital(VERB) : VERB;
  }
  const { engines } = await api("GET", "/api/engines");
  $("#engine").innerHTML = "";
  for (const engine of engines) $("#engine").append(new Option(engine.name, engine.name));
  engines.forEach((engine, i) => { $("#engine").options[i].title = engine.description; });
  loadSettings();
  const asked = new URLSearchParams(location.search).get("game");
  let state = null;
  if (asked) {
    state = await api("GET", `/api/games/${encodeURIComponent(asked)}`).catch((error) => {
      if (error.status === 404) return null;
      throw error;
    });
    if (!state) {
      showMissing(asked);
      document.body.dataset.ready = "true";
      return;
    }
  } else {
    const id = sessionStorage.getItem("hinge-game");
    if (id) state = await api("GET", `/api/games/${encodeURIComponent(id)}`).catch(() => null);
    if (!state) state = await api("POST", "/api/games", { size: Number($("#size").value) || 6 });
  }
  render(state);
  document.body.dataset.ready = "true";
  if (!state.searching) await engineIfItsTurn();
}

start().catch((error) => say(error.message));
