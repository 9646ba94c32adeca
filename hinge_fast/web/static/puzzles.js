// The prover on the page (app.js): its result under the analysis (showProof), and the
// Puzzles mode: the shipped puzzles (GET /api/puzzles), each a position whose side to
// move wins by force. The player takes the winning side; after each of their moves the
// server's prover (POST /api/games/ID/prove) checks that the win is still proven, and
// the engine replies. Solved when the player's move ends the game. A failed puzzle goes
// on when the failing move is taken back.
"use strict";

//: The prover's nodes for checking a move of the player.
const PUZZLE_PROOF_NODES = 100000;
const puzzles = { list: [], current: null };  // current: {number, id, winner, over, overAt}

// The puzzle's news, and the ply of the game it is about (data-ply).
function puzzleStatus(text, kind = "") {
  $("#puzzle-status").textContent = text;
  $("#puzzle-status").className = kind;
  $("#puzzle-status").dataset.ply = String(page.state.ply);
}

function puzzleLabel(p) {
  return `${p.number}: side ${p.size}, ${capital(p.winner)} to move wins within ${p.distance} moves`;
}

async function loadPuzzles() {
  puzzles.list = await api("GET", "/api/puzzles");
  const select = $("#puzzle-list");
  select.innerHTML = "";
  for (const p of puzzles.list) select.append(new Option(puzzleLabel(p), String(p.number)));
}

async function playPuzzle() {
  const p = puzzles.list.find((q) => String(q.number) === $("#puzzle-list").value);
  if (!p) return;
  await stopAnalysis();
  page.analysis = null;
  page.following = false;
  showAnalysisButtons();
  $("#mode").value = "engine";
  $("#side").value = p.winner;
  setMode();
  const state = await api("POST", "/api/games", { size: p.size, position: p.position });
  puzzles.current = { number: p.number, id: state.id, winner: p.winner, moves: p.moves, over: false, overAt: null };
  render(state);
  puzzleStatus(`Puzzle ${p.number}: ${capital(p.winner)} to move and win (proven within ${p.distance} moves). ` +
    `The engine at ${p.engine_time} s played ${p.engine_move} here. Your move.`);
}

// After each move of the player: true when the engine may reply.
async function puzzleAfterMove() {
  const current = puzzles.current;
  if (!current || current.over || page.state.id !== current.id) return true;
  const state = page.state;
  const move = state.moves[state.moves.length - 1];
  if (state.outcome) {
    current.over = true;
    current.overAt = state.ply;
    if (state.outcome.winner === current.winner) puzzleStatus(`Solved: ${move} wins puzzle ${current.number}.`, "solved");
    else puzzleStatus(`Failed: ${state.outcome.winner} wins.`, "failed");
    return false;
  }
  if (state.ply === 1 && current.moves.includes(move)) {  // a winning move the puzzle lists: proven already
    puzzleStatus(`${move} is a winning move. The engine replies…`);
    return true;
  }
  puzzleStatus(`${move}: proving…`);
  const proof = await api("POST", gamePath("/prove"), { nodes: PUZZLE_PROOF_NODES });
  if (proof.winner === current.winner) {
    puzzleStatus(`${move} keeps the win (${proof.text}). The engine replies…`);
    return true;
  }
  current.over = true;
  current.overAt = state.ply;
  puzzleStatus(`Failed: after ${move} the prover finds no forced win within ${PUZZLE_PROOF_NODES.toLocaleString()} ` +
    "nodes. Take it back or play the puzzle again.", "failed");
  return false;
}

// After the engine's reply, the player's turn again.
function puzzleAfterRender(state) {
  const current = puzzles.current;
  if (!current || state.id !== current.id) return;
  if (current.over && !state.outcome && state.ply < current.overAt) {
    // the move that failed (or ended the game) taken back: the puzzle goes on from here
    current.over = false;
    current.overAt = null;
    puzzleStatus(state.turn === current.winner ? "Taken back. Your move." : "Taken back.");
    return;
  }
  if (current.over || state.outcome || state.turn !== current.winner) return;
  if (state.ply > 0 && $("#puzzle-status").textContent.endsWith("The engine replies…")) {
    puzzleStatus(`The engine played ${state.moves[state.moves.length - 1]}. Your move.`);
  }
}

// The prover's result, beside the analysis: proven for a side, or not within its nodes.
function showProof(data) {
  if (!page.analysis || page.state.position !== page.analysis.position) return;
  if (data.error) { $("#proof").textContent = data.error; return; }
  const nodes = `${data.nodes.toLocaleString()} nodes, ${data.seconds.toFixed(1)} s`;
  $("#proof").textContent = data.winner
    ? `${data.text} (${nodes})${data.moves.length ? `: ${data.moves.join(" ")}` : ""}`
    : `prover: no win proven within ${nodes}`;
  $("#proof").className = data.winner ? `proven ${data.winner}` : "";
}

function wirePuzzles() {
  page.afterMove = puzzleAfterMove;
  page.afterRender = puzzleAfterRender;
  $("#puzzle-load").addEventListener("click", () => attempt(playPuzzle));
  loadPuzzles().catch((error) => say(error.message));
}

wirePuzzles();
