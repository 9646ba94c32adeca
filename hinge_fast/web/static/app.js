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
};
//: Nodes of the proof asked for with each analysis.
const ANALYSIS_PROOF_NODES = 20000;
//: Recent games kept on this browser, newest first.
const RECENT_KEY = "hinge-fast-games";
const RECENT_MOST = 20;
//: A second click on the cell just played within this many ms is the rest of a double click.
const DOUBLE_CLICK_MS = 600;

// ----- talking to the server -----------------------------------------------------------------
class ApiError extends Error {
  constructor(message, status) { super(message); this.status = status; }
}

async function api(method, path, body) {
  const response = await fetch(path, {
    method,
    headers: body === undefined ? {} : { "Content-Type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (response.headers.get("content-type") || "").includes("json");
  const data = json ? await response.json() : await response.text();
  if (!response.ok) throw new ApiError(json ? data.error : data, response.status);
  return data;
}

// POST a request answered with server-sent events; onEvent(name, data) for each.
async function stream(path, body, onEvent) {
  const response = await fetch(path, {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body),
  });
  if (!response.ok) throw new ApiError((await response.json()).error, response.status);
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
  if (page.turned) turnPicture();
  fitLabels();
  highlightSelection();
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

// The end of a game: the result, and what can be done next.
function renderBanner(state) {
  const banner = $("#banner");
  banner.hidden = !state.outcome;
  banner.classList.remove("green", "blue");
  if (!state.outcome) return;
  const { winner, reason } = state.outcome;
  banner.classList.add(winner);
  $("#banner-text").textContent = `${capital(winner)} wins by ${reason}.`;
  $("#banner-undo").textContent = reason === "resignation" ? "Take back the resignation" : "Take back the last move";
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
  hint(`${cell} picked: click a highlighted cell (${[...new Set(swipes.map((m) => m.to))].join(" ")})`);
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
  try {
    await stream(gamePath("/engine-move"), { engine: $("#engine").value, time: Number($("#time").value) }, (name, data) => {
      if (name === "progress") {
        $("#status").textContent = `the engine is thinking… best so far ${data.best} (${data.green.text}, depth ${data.depth})`;
      }
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
  drawBoard(data.svg);  // a token picked while the analysis runs stays picked
  setBar("eval", data.green.green_share, data.green.text);
  $("#best").textContent = data.best || "none";
  $("#score").textContent = data.green.text;
  $("#analysis-info").textContent = `${data.engine}, depth ${data.depth}, ${data.nodes.toLocaleString()} nodes, ${data.seconds.toFixed(1)} s${data.final ? " (done)" : ""}`;
  $("#top-moves tbody").innerHTML = "";
  for (const row of data.top) {
    const tr = document.createElement("tr");
    for (const text of [row.move, row.green_text, row.line.join(" ")]) {
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
  const seq = ++page.analyseSeq;
  if (page.analysisDone) await stopAnalysis(false);
  if (seq !== page.analyseSeq || page.thinking) return;  // a newer request, or the engine moves
  page.analysis = { position: page.state.position, svg: null };
  $("#analyse").hidden = true;
  $("#stop-analysis").hidden = false;
  const body = { engine: $("#engine").value, time: Number($("#analysis-time").value), top: 5, prove: ANALYSIS_PROOF_NODES };
  const done = stream(gamePath("/analysis"), body, (name, data) => {
    if (name === "start") { showThreats(data); $("#proof").textContent = "proving…"; }
    if (name === "proof") showProof(data);
    if (name === "progress" || name === "done") showAnalysis(data);
    if (name === "error") say(data.error);
  }).catch((error) => say(error.message)).finally(() => {
    if (page.analysisDone !== done) return;
    page.analysisDone = null;
    $("#analyse").hidden = false;
    $("#stop-analysis").hidden = true;
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
function confirmNewGame() {
  const state = page.state;
  if (!state || state.outcome || state.ply + state.redo.length === 0) return Promise.resolve(true);
  const dialog = $("#confirm-new");
  const moves = state.ply + state.redo.length;
  $("#confirm-text").textContent = `Start a new game? This one (${moves} move${moves === 1 ? "" : "s"}) ` +
    "stays under “Recent games on this browser” while the server runs.";
  return new Promise((resolve) => {
    dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes"), { once: true });
    dialog.returnValue = "";
    dialog.showModal();
  });
}

async function newGame() {
  if (!(await confirmNewGame())) return;
  await stopAnalysis();
  page.analysis = null;
  render(await api("POST", "/api/games", { size: Number($("#size").value) }));
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
  } else {
    render(await api("POST", gamePath("/undo")));
  }
}

async function loadFrom(path, body, box) {
  // a rejected text stays in its box, marked, with the reason; the game is unchanged
  try {
    render(await api("POST", gamePath(path), body));
    box.removeAttribute("aria-invalid");
  } catch (error) {
    box.setAttribute("aria-invalid", "true");
    throw error;
  }
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

function toggleTurned() {
  page.turned = !page.turned;
  $("#flip").setAttribute("aria-pressed", String(page.turned));
  sessionStorage.setItem("hinge-turned", page.turned ? "1" : "");
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
  on("#undo", async () => render(await api("POST", gamePath("/undo"))));
  on("#redo", async () => render(await api("POST", gamePath("/redo"))));
  on("#first", async () => render(await api("POST", gamePath("/goto"), { ply: 0 })));
  on("#last", async () => render(await api("POST", gamePath("/goto"), { ply: page.state.ply + page.state.redo.length })));
  on("#analyse", async () => { page.following = true; await analyse(); });
  on("#stop-analysis", async () => { page.following = false; await stopAnalysis(); });
  on("#choice-cancel", async () => { hideChoice(); clearSelection(); });
  on("#load-position", () => loadFrom("/position", { position: $("#position").value }, $("#position")));
  on("#show-record", async () => { $("#record").value = await api("GET", gamePath("/record")); });
  on("#load-record", () => loadFrom("/record", { record: $("#record").value }, $("#record")));
  on("#edit", toggleEditing);
  $("#edit-turn").addEventListener("change", () => attempt(async () => {
    const turn = $("#edit-turn").value;
    if (turn !== page.state.turn) render(await api("POST", gamePath("/edit"), { cell: null, piece: null, turn }));
  }));
  $("#mode").addEventListener("change", () => { setMode(); attempt(engineIfItsTurn); });
  $("#side").addEventListener("change", () => attempt(engineIfItsTurn));
  $("#sound").addEventListener("change", () => localStorage.setItem("hinge-fast-sound", $("#sound").checked ? "on" : ""));
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
  setMode();
  $("#sound").checked = localStorage.getItem("hinge-fast-sound") === "on";
  page.turned = sessionStorage.getItem("hinge-turned") === "1";
  $("#flip").setAttribute("aria-pressed", String(page.turned));
  const { engines } = await api("GET", "/api/engines");
  $("#engine").innerHTML = "";
  for (const engine of engines) $("#engine").append(new Option(engine.name, engine.name));
  engines.forEach((engine, i) => { $("#engine").options[i].title = engine.description; });
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
    if (!state) state = await api("POST", "/api/games", { size: 6 });
  }
  render(state);
  document.body.dataset.ready = "true";
}

start().catch((error) => say(error.message));
