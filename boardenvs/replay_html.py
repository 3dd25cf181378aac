"""A replay as one self-contained HTML page: the game's SVG pictures, a player and the move list, offline.

:func:`replay_html` draws every position of a :class:`~boardenvs.replay.Replay` with the game's ``render_svg``
and writes them, with a small player (play/pause, step, a slider, speed, the move list in notation and the
result), into one HTML file that opens from disk: no server, no network, no library. For a game with hidden
information the page can switch between the spectator's view and each seat's view (what that seat saw, its
moves written as that seat saw them). Pictures are stored as the tags that changed since the previous one.

>>> from boardenvs import make_game
>>> from boardenvs.replay import record_replay
>>> game = make_game("quoridor", board_size=3)
>>> page = replay_html(record_replay(game, seed=1, actions=[4, 9], agents=["me", "you"]))
>>> page.startswith("<!DOCTYPE html>") and "b2h" in page
True
"""

from __future__ import annotations

import html
import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from boardenvs.core import Game
from boardenvs.replay import Replay, load_replay, replay_states

SPEEDS: tuple[float, ...] = (0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0)
"""The speeds the player offers, in moves per second (2 by default)."""


def outcome_text(returns: Sequence[float], names: Sequence[str], truncated: bool) -> str:
    """``'heuristic (seat 0) won'``, ``'a draw'``, with ``' at the move cap'`` when the cap ended the game."""
    values = [float(value) for value in returns]
    best = max(values)
    winners = [seat for seat, value in enumerate(values) if value == best]
    if len(winners) == len(values):
        text = "a draw"
    else:
        who = " and ".join(f"{names[seat]} (seat {seat})" for seat in winners)
        text = f"{who} won" if len(winners) == 1 else f"{who} shared the win"
    return text + (" at the move cap" if truncated else "")


def result_text(replay: Replay, finished: bool = True) -> str:
    """The result of ``replay`` in words (:func:`outcome_text`), or that it is not finished."""
    if not finished:
        return f"not finished after {replay.result.plies} moves"
    return outcome_text(replay.result.returns, replay.agents, replay.result.truncated)


def replay_data(replay: Replay, game: Game, states: list[Any]) -> dict[str, Any]:
    """What the page plays: the pictures of every view (packed by :func:`pack_pictures`), the move texts per view,
    the movers and the result."""
    seats = range(game.spec.num_players)
    views: list[int | None] = [None] if game.spec.perfect_information else [None, *seats]
    pictures = [[game.render_svg(state, seat) for state in states] for seat in views]
    tokens, packed = pack_pictures(pictures)
    move_texts = [[_move_text(game, states[i], move.action, seat) for i, move in enumerate(replay.moves)]
                  for seat in views]  # fmt: skip
    return {
        "title": f"{replay.game}: " + " vs ".join(replay.agents),
        "agents": list(replay.agents),
        "views": [_view_name(replay, seat) for seat in views],
        "tokens": tokens,
        "pictures": packed,
        "moves": move_texts,
        "movers": [move.player for move in replay.moves],
        "result": result_text(replay, game.is_terminal(states[-1])),
        "returns": list(replay.result.returns),
        "speeds": list(SPEEDS),
    }


def svg_tokens(svg: str) -> list[str]:
    """An SVG document cut between its tags (``"".join`` gives it back).

    >>> svg_tokens('<svg><rect/><text>a</text></svg>')
    ['<svg>', '<rect/>', '<text>a</text>', '</svg>']
    """
    return svg.replace("><", ">\0<").split("\0")


def pack_pictures(views: list[list[str]]) -> tuple[list[str], list[list[list[Any]]]]:
    """Successive pictures stored small: every distinct tag once (``tokens``), and each picture as the tags it
    shares with the previous picture of its view at the start and at the end plus the ids of the tags between,
    ``[prefix, suffix, [ids...]]`` (one move changes a few tags of a picture, so a 300-move game of 5 views takes
    little more room than its first picture).

    >>> tokens, packed = pack_pictures([["<a><b></a>", "<a><c></a>"]])
    >>> tokens, packed
    (['<a>', '<b>', '</a>', '<c>'], [[[0, 0, [0, 1, 2]], [1, 1, [3]]]])
    >>> unpack_pictures(tokens, packed) == [["<a><b></a>", "<a><c></a>"]]
    True
    """
    ids_of: dict[str, int] = {}
    packed_views = []
    for pictures in views:
        previous: list[int] = []
        packed = []
        for svg in pictures:
            ids = [ids_of.setdefault(token, len(ids_of)) for token in svg_tokens(svg)]
            prefix = _common_prefix(previous, ids)
            suffix = _common_prefix(previous[prefix:][::-1], ids[prefix:][::-1])
            packed.append([prefix, suffix, ids[prefix : len(ids) - suffix]])
            previous = ids
        packed_views.append(packed)
    return list(ids_of), packed_views


def _common_prefix(first: list[int], second: list[int]) -> int:
    length = 0
    for a, b in zip(first, second):
        if a != b:
            break
        length += 1
    return length


def unpack_pictures(tokens: list[str], packed_views: list[list[list[Any]]]) -> list[list[str]]:
    """The pictures :func:`pack_pictures` packed (the page's script does the same)."""
    views = []
    for packed in packed_views:
        previous: list[int] = []
        pictures = []
        for prefix, suffix, middle in packed:
            ids = previous[:prefix] + middle + (previous[len(previous) - suffix :] if suffix else [])
            pictures.append("".join(tokens[i] for i in ids))
            previous = ids
        views.append(pictures)
    return views


def _move_text(game: Game, state: Any, action: int, seat: int | None) -> str:
    return game.action_to_str(state, action) if seat is None else game.action_text_for(state, action, seat)


def _view_name(replay: Replay, seat: int | None) -> str:
    return "spectator (everything)" if seat is None else f"seat {seat}: {replay.agents[seat]}"


def replay_html(replay: Replay, game: Game | None = None, states: list[Any] | None = None) -> str:
    """The self-contained HTML page of ``replay`` (its moves are checked when ``states`` is not given).

    Args:
        replay: The game.
        game: Its game, if already built (default: ``replay.make_game()``).
        states: Its states, if already replayed (default: :func:`~boardenvs.replay.replay_states`).
    """
    game = game or replay.make_game()
    states = states if states is not None else replay_states(replay, game)
    data = json.dumps(replay_data(replay, game, states), separators=(",", ":"))
    data = data.replace("</", "<\\/")  # nothing in the data can close the <script> element
    return (PAGE.replace("$TITLE", html.escape(f"boardenvs replay: {replay.game}"))
            .replace("$SCRIPT", PLAYER_SCRIPT).replace("$DATA", data))  # fmt: skip


def write_replay_html(source: Replay | str | Path | dict[str, Any], path: str | Path) -> Path:
    """Write the HTML page of a replay (a :class:`Replay`, or a replay file or JSON data) to ``path``."""
    if isinstance(source, Replay):
        page = replay_html(source)
    else:
        replay, game, states = load_replay(source)
        page = replay_html(replay, game, states)
    path = Path(path)
    path.write_text(page, encoding="utf-8")
    return path


class HtmlReplay:
    """A replay shown in Jupyter (``display(HtmlReplay(replay))``) or saved as a page (:meth:`save`).

    Args:
        replay: The game to show.
        height: The height of the player in a notebook, in pixels.
    """

    def __init__(self, replay: Replay, height: int = 640) -> None:
        self.replay = replay
        self.height = height
        self.html = replay_html(replay)

    def save(self, path: str | Path) -> Path:
        """Write the page to ``path``."""
        path = Path(path)
        path.write_text(self.html, encoding="utf-8")
        return path

    def _repr_html_(self) -> str:
        """The page inside an isolated ``<iframe srcdoc>`` (its script cannot touch the notebook)."""
        source = html.escape(self.html, quote=True)
        return (f'<iframe srcdoc="{source}" style="width:100%;height:{int(self.height)}px;border:0" '
                f'sandbox="allow-scripts"></iframe>')  # fmt: skip


PAGE = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>$TITLE</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font-family:Helvetica,Arial,sans-serif;margin:0;background:#f4f4f0;color:#222}
header{padding:8px 14px;background:#263238;color:#fff}
header h1{font-size:17px;margin:0}
main{display:flex;gap:14px;padding:12px;align-items:flex-start;flex-wrap:wrap}
#board{background:#fff;border:1px solid #ccc;padding:6px;max-width:min(100%,900px)}
#board svg{max-width:100%;height:auto;display:block}
#side{min-width:240px;max-width:340px;flex:1}
.controls{display:flex;gap:4px;flex-wrap:wrap;align-items:center;margin-bottom:8px}
button,select{font-size:14px;padding:4px 8px}
#slider{width:100%}
#status{margin:6px 0;font-size:14px}
#result{margin:6px 0;padding:6px 8px;background:#fff3c4;border:1px solid #e0c060;font-weight:bold;display:none}
#result.shown{display:block}
ol#moves{max-height:420px;overflow-y:auto;background:#fff;border:1px solid #ccc;margin:0;padding:4px 4px 4px 44px;
font-family:monospace;font-size:13px}
ol#moves li{cursor:pointer;padding:1px 4px}
ol#moves li.current{background:#ffd54f}
.seat0{color:#d32f2f}.seat1{color:#1565c0}.seat2{color:#b28704}.seat3{color:#2e7d32}
</style></head>
<body><header><h1 id="title"></h1></header>
<main><div id="board"></div>
<div id="side">
<div class="controls">
<button id="first" title="first position (Home)">|&#x25C0;</button>
<button id="prev" title="previous move (Left)">&#x25C0;</button>
<button id="play" title="play / pause (Space)">&#x25B6; play</button>
<button id="next" title="next move (Right)">&#x25B6;</button>
<button id="last" title="last position (End)">&#x25B6;|</button>
</div>
<input type="range" id="slider" min="0" value="0" aria-label="position">
<div class="controls"><label>speed <select id="speed"></select></label>
<label id="viewbox">view <select id="view"></select></label></div>
<div id="status"></div><div id="result"></div>
<ol id="moves" start="1"></ol>
</div></main>
<script type="application/json" id="replay-data">$DATA</script>
<script>$SCRIPT</script>
</body></html>
"""

PLAYER_SCRIPT = """
"use strict";
const D = JSON.parse(document.getElementById("replay-data").textContent);
const $ = (id) => document.getElementById(id);
const pictures = D.pictures.map((packed) => {
  let previous = [];
  return packed.map(([prefix, suffix, middle]) => {
    const ids = previous.slice(0, prefix).concat(middle, suffix ? previous.slice(previous.length - suffix) : []);
    previous = ids;
    return ids;
  });
});
const last = pictures[0].length - 1;
let pos = 0, view = 0, timer = null;
$("title").textContent = D.title;
$("slider").max = last;
D.speeds.forEach((s) => {
  const o = new Option(s + " moves/s", s); if (s === 2) o.selected = true; $("speed").add(o);
});
D.views.forEach((name, i) => $("view").add(new Option(name, i)));
if (D.views.length < 2) $("viewbox").style.display = "none";
function buildMoves() {
  const list = $("moves"); list.innerHTML = "";
  D.moves[view].forEach((text, i) => {
    const li = document.createElement("li");
    li.textContent = text; li.className = "seat" + D.movers[i]; li.title = D.agents[D.movers[i]];
    li.addEventListener("click", () => { stop(); show(i + 1); });
    list.appendChild(li);
  });
}
function show(p) {
  pos = Math.max(0, Math.min(last, p));
  $("board").innerHTML = pictures[view][pos].map((id) => D.tokens[id]).join("");
  $("slider").value = pos;
  const mover = pos > 0 ? D.movers[pos - 1] : null;
  $("status").textContent = pos === 0 ? "start (" + last + " moves)" :
    "move " + pos + " of " + last + ": " + D.agents[mover] + " (seat " + mover + ") played " + D.moves[view][pos - 1];
  $("result").textContent = "Result: " + D.result;
  $("result").classList.toggle("shown", pos === last);
  const previous = document.querySelector("#moves li.current");
  if (previous) previous.classList.remove("current");
  const current = pos > 0 ? $("moves").children[pos - 1] : null;
  if (current) { current.classList.add("current"); current.scrollIntoView({block: "nearest"}); }
}
function stop() { if (timer) clearInterval(timer); timer = null; $("play").innerHTML = "&#x25B6; play"; }
function play() {
  if (pos === last) show(0);
  $("play").textContent = "pause";
  timer = setInterval(() => { if (pos >= last) stop(); else show(pos + 1); }, 1000 / Number($("speed").value));
}
$("play").onclick = () => (timer ? stop() : play());
$("first").onclick = () => { stop(); show(0); };
$("last").onclick = () => { stop(); show(last); };
$("prev").onclick = () => { stop(); show(pos - 1); };
$("next").onclick = () => { stop(); show(pos + 1); };
$("slider").oninput = () => { stop(); show(Number($("slider").value)); };
$("speed").onchange = () => { if (timer) { stop(); play(); } };
$("view").onchange = () => { view = Number($("view").value); buildMoves(); show(pos); };
document.addEventListener("keydown", (e) => {
  if (e.target.tagName === "SELECT" || e.target.tagName === "INPUT") return;
  const keys = {ArrowLeft: () => $("prev").click(), ArrowRight: () => $("next").click(),
    Home: () => $("first").click(), End: () => $("last").click(), " ": () => $("play").click()};
  if (keys[e.key]) { e.preventDefault(); keys[e.key](); }
});
buildMoves(); show(0);
"""
