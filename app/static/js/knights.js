// The knight's tour backtracking view (seed 004): jump, back, tour.
import { Stepper } from "./stepper.js";
import { fetchJSON, onReady } from "./common.js";
import { chessboard } from "./chessboard.js";

function knightsView(root) {
  const stepper = new Stepper(root);
  const board = root.querySelector('[data-role="board"]');
  const caption = root.querySelector('[data-role="caption"]');
  const form = document.getElementById("knights-watch");
  let latest = 0;
  async function load() {
    // as on the queens page: only the newest request's answer is shown
    const mine = ++latest;
    root.dataset.loaded = "0";
    const q = new URLSearchParams(new FormData(form));
    let data;
    try {
      data = await fetchJSON(`${root.dataset.url}?${q}`);
    } catch (e) {
      caption.textContent = e.message;
      return;
    }
    if (mine !== latest) return;
    const squares = chessboard(board, data.rows, data.cols);
    const events = data.events;
    stepper.load(events.length, (k) => {
      const path = [];
      let last = null;
      for (let i = 0; i < k; i++) {
        const e = events[i];
        if (e.event === "jump") path.push(e.square);
        else if (e.event === "back") path.pop();
        last = e;
      }
      squares.forEach((sq) => {
        sq.textContent = "";
        sq.classList.remove("visited", "knight");
      });
      path.forEach((s, i) => {
        squares[s].textContent = i + 1;
        squares[s].classList.add("visited");
      });
      if (path.length) squares[path[path.length - 1]].classList.add("knight");
      root.dataset.visited = path.length;
      caption.textContent = !last
        ? "Press play: the knight tries its jumps in a fixed order and backs up at dead ends."
        : last.event === "tour"
          ? `A tour: all ${path.length} squares after ${k} steps.`
          : last.event === "back"
            ? `Dead end: back from square ${last.square} (${path.length} squares on the path).`
            : `Jump ${path.length} to square ${last.square}.`;
      if (k === events.length && !data.solved) caption.textContent += " (recording stopped here; no tour yet)";
    });
  }
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    load();
  });
  load();
}

onReady(() => document.querySelectorAll('.stepper[data-kind="knights"]').forEach(knightsView));
