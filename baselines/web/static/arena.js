// The arena page: set up a game, play it by clicking on the board, watch bots. The server holds the game;
// this page only shows the seat view it is sent and posts the moves a person chooses.
"use strict";
const $ = (id) => document.getElementById(id);
let catalog = null, view = null, timer = null, viewer = "";

async function api(method, path, body) {
  const options = {method, headers: {"Content-Type": "application/json"}};
  if (body !== undefined) options.body = JSON.stringify(body);
  const response = await fetch(path, options);
  const data = await response.json();
  if (!response.ok) throw new Error(data.error || response.statusText);
  return data;
}

function query() { return viewer === "" ? "" : (viewer === "spectator" ? "?view=spectator" : "?seat=" + viewer); }

// -- setup ------------------------------------------------------------------------------------------
function currentGame() { return catalog.games.find((g) => g.name === $("game").value); }

function fillGames() {
  catalog.games.forEach((g) => $("game").add(new Option(g.name, g.name)));
  $("game").onchange = fillGame;
  fillGame();
}

function fillGame() {
  const game = currentGame();
  $("game-doc").textContent = game.doc;
  $("preset").innerHTML = "";
  $("preset").add(new Option("(none)", ""));
  game.presets.forEach((p) => $("preset").add(new Option(p, p)));
  const box = $("config");
  box.querySelectorAll("label").forEach((l) => l.remove());
  Object.entries(game.config).forEach(([key, value]) => box.appendChild(configInput(key, value)));
  $("agent-specs").innerHTML = "";
  ["human", ...game.agents, ...catalog.allowed_agents].forEach((s) => $("agent-specs").appendChild(new Option(s)));
  fillSeats(game.num_players);
}

function configInput(key, value) {
  const label = document.createElement("label");
  const input = document.createElement("input");
  input.dataset.key = key;
  input.dataset.original = JSON.stringify(value);
  if (typeof value === "boolean") { input.type = "checkbox"; input.checked = value; }
  else if (typeof value === "number") { input.type = "number"; input.value = value; }
  else { input.type = "text"; input.value = typeof value === "string" ? value : JSON.stringify(value); }
  if (key === "num_players") input.onchange = () => fillSeats(Number(input.value) || 2);
  label.append(key + " ", input);
  return label;
}

function fillSeats(count) {
  const box = $("seats");
  const old = [...box.querySelectorAll("input")].map((i) => i.value);
  box.querySelectorAll("label").forEach((l) => l.remove());
  for (let seat = 0; seat < count; seat++) {
    const label = document.createElement("label");
    const input = document.createElement("input");
    input.setAttribute("list", "agent-specs");
    input.id = "seat-" + seat;
    input.value = old[seat] || (seat === 0 ? "human" : "random");
    label.append("seat " + seat + " ", input);
    box.appendChild(label);
  }
}

function readConfig() {
  const config = {};
  $("config").querySelectorAll("input").forEach((input) => {
    let value;
    if (input.type === "checkbox") value = input.checked;
    else if (input.type === "number") value = Number(input.value);
    else { try { value = JSON.parse(input.value); } catch (e) { value = input.value; } }
    if (JSON.stringify(value) !== input.dataset.original) config[input.dataset.key] = value;
  });
  return config;
}

async function start() {
  $("setup-error").textContent = "";
  const body = {game: $("game").value, config: readConfig(),
    seats: [...$("seats").querySelectorAll("input")].map((i) => i.value.trim())};
  if ($("preset").value) body.preset = $("preset").value;
  if ($("seed").value !== "") body.seed = Number($("seed").value);
  try {
    viewer = "";
    show(await api("POST", "/api/sessions", body));
    $("setup").hidden = true; $("play").hidden = false;
  } catch (error) { $("setup-error").textContent = error.message; }
}

// -- the game ---------------------------------------------------------------------------------------
function show(data) {
  view = data;
  $("error").textContent = ""; $("choices").innerHTML = "";
  $("board").innerHTML = data.svg;
  $("board").dataset.ply = data.ply;  // what is on show (tests wait for it)
  $("status").textContent = statusText(data);
  $("result").textContent = data.over ? "Result: " + (data.result || "") : (data.message || "");
  const targeted = new Set();
  $("board").querySelectorAll(".target").forEach((t) => {
    const actions = t.dataset.actions.split(" ").map(Number);
    actions.forEach((a) => targeted.add(a));
    t.addEventListener("click", () => choose(actions));
  });
  fillButtons(data.legal.filter((m) => !targeted.has(m.action)));
  $("moves-select").innerHTML = "";
  data.legal.forEach((m) => $("moves-select").add(new Option(m.text, m.action)));
  $("every-move").hidden = data.legal.length === 0;
  fillMoveList(data.moves);
  fillWatch(data);
  $("undo").disabled = !data.can_undo;
}

function statusText(data) {
  if (data.over) return "Game over after " + data.moves.length + " moves";
  const seat = data.seats[data.to_move];
  if (data.your_turn) return "Your move (seat " + data.to_move + ")";
  return "seat " + data.to_move + " (" + seat.player + ") to move";
}

function fillButtons(moves) {
  const box = $("buttons"); box.innerHTML = "";
  moves.forEach((m) => {
    const button = document.createElement("button");
    button.textContent = m.text; button.dataset.action = m.action;
    button.onclick = () => play(m.action);
    box.appendChild(button);
  });
}

function choose(actions) {
  if (actions.length === 1) { play(actions[0]); return; }
  const box = $("choices"); box.innerHTML = "";
  box.append("choose: ");
  actions.forEach((a) => {
    const move = view.legal.find((m) => m.action === a);
    const button = document.createElement("button");
    button.textContent = move ? move.text : String(a); button.dataset.action = a;
    button.onclick = () => play(a);
    box.appendChild(button);
  });
}

function fillMoveList(moves) {
  const list = $("moves"); list.innerHTML = "";
  moves.forEach((m) => {
    const li = document.createElement("li");
    li.textContent = m.text; li.className = "seat" + m.player;
    list.appendChild(li);
  });
  list.scrollTop = list.scrollHeight;
}

function fillWatch(data) {
  const botsOnly = data.seats.every((s) => s.player !== "human");
  $("watch").hidden = !botsOnly;
  if (!botsOnly || $("view").options.length) return;
  data.seats.forEach((s) => $("view").add(new Option("seat " + s.seat, String(s.seat))));
  $("view").add(new Option("spectator (everything)", "spectator"));
  $("view").value = String(data.viewer);
}

async function act(path, body) {
  try { show(await api("POST", "/api/sessions/" + view.id + path + query(), body)); }
  catch (error) { stopBots(); $("error").textContent = error.message; }
}

function play(action) { return act("/move", {seat: view.to_move, action, ply: view.ply}); }

function stopBots() { if (timer) clearTimeout(timer); timer = null; $("run").innerHTML = "&#x25B6; run bots"; }

function runBots() {
  $("run").textContent = "pause";
  const tick = async () => {
    if (!view || view.over) { stopBots(); return; }
    await act("/advance", {ply: view.ply});
    if (timer !== null) timer = setTimeout(tick, Number($("speed").value));
  };
  timer = setTimeout(tick, 0);
}

function download() {
  fetch("/api/sessions/" + view.id + "/replay").then(async (response) => {
    const data = await response.json();
    if (!response.ok) { $("error").textContent = data.error; return; }
    const link = document.createElement("a");
    link.href = URL.createObjectURL(new Blob([JSON.stringify(data)], {type: "application/json"}));
    link.download = data.game + "-replay.json"; link.click();
  });
}

function wire() {
  $("start").onclick = start;
  $("undo").onclick = () => act("/undo", {});
  $("restart").onclick = () => { stopBots(); act("/restart", {}); };
  $("new").onclick = () => { stopBots(); $("play").hidden = true; $("setup").hidden = false; $("view").innerHTML = ""; };
  $("download").onclick = download;
  $("play-selected").onclick = () => play(Number($("moves-select").value));
  $("run").onclick = () => (timer ? stopBots() : runBots());
  $("step").onclick = () => { stopBots(); act("/advance", {ply: view.ply}); };
  $("view").onchange = async () => {
    viewer = $("view").value;
    try { show(await api("GET", "/api/sessions/" + view.id + query())); }
    catch (error) { $("error").textContent = error.message; }
  };
}

wire();
api("GET", "/api/catalog").then((data) => { catalog = data; fillGames(); })
  .catch((error) => { $("setup-error").textContent = error.message; });
