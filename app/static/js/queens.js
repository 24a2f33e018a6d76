// The N queens backtracking view (seed 004): place, conflict (the attacking queen ringed), remove, solution.
import { Stepper } from "./stepper.js";
import { fetchJSON, onReady } from "./common.js";
import { chessboard } from "./chessboard.js";

function queensView(root) {
  const stepper = new Stepper(root);
  const board = root.querySelector('[data-role="board"]');
  const caption = root.querySelector('[data-role="caption"]');
  const form = document.getElementById("queens-watch");
  let latest = 0;
  async function load(n) {
    // The page loads N = 8 at once; a Show pressed before that answer arrives must win, so an older answer is dropped.
    const mine = ++latest;
    root.dataset.loaded = "0";
    let data;
    try {
      data = await fetchJSON(`${root.dataset.url}?n=${n}`);
    } catch (e) {
      caption.textContent = e.message;
      return;
    }
    if (mine !== latest) return;
    const squares = chessboard(board, n, n);
    const events = data.events;
    root.dataset.solved = "0";
    stepper.load(events.length, (k) => {
      const columns = [];
      let last = null;
      for (let i = 0; i < k; i++) {
        const e = events[i];
        if (e.event === "place") columns[e.row] = e.col;
        else if (e.event === "remove") columns.length = e.row;
        last = e;
      }
      squares.forEach((sq) => {
        sq.className = sq.className.replace(/ (queen|trying|clash|attacker)/g, "");
        sq.textContent = "";
      });
      columns.forEach((c, r) => {
        squares[r * n + c].classList.add("queen");
        squares[r * n + c].textContent = "♛";
      });
      let text = "Press play: queens go row by row, each in the first square no queen above attacks.";
      if (last && last.event === "conflict") {
        squares[last.row * n + last.col].classList.add("clash");
        squares[last.by * n + columns[last.by]].classList.add("attacker");
        text = `Row ${last.row + 1}, column ${last.col + 1}: attacked by the queen in row ${last.by + 1}.`;
      } else if (last && last.event === "place") {
        squares[last.row * n + last.col].classList.add("trying");
        text = `Row ${last.row + 1}: a queen in column ${last.col + 1}, safe so far.`;
      } else if (last && last.event === "remove") {
        text = `Row ${last.row + 1} has no safe square left below: take back the queen in column ${last.col + 1}.`;
      } else if (last && last.event === "solution") {
        text = `A solution after ${k} steps: columns ${last.columns.map((c) => c + 1).join(" ")}.`;
      }
      root.dataset.solved = last && last.event === "solution" ? "1" : "0";
      root.dataset.queens = columns.join(",");
      caption.textContent = text;
    });
  }
  form.addEventListener("submit", (event) => {
    event.preventDefault();
    load(+form.elements.n.value);
  });
  load(+form.elements.n.value);
}

onReady(() => document.querySelectorAll('.stepper[data-kind="queens"]').forEach(queensView));
