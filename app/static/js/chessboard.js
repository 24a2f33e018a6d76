// A chessboard of squares for the queens and knight's tour views; the squares are decoration (the caption says
// what happens), so the board is one labelled image to assistive technology.
import { html } from "./common.js";

export function chessboard(el, rows, cols) {
  el.innerHTML = "";
  el.setAttribute("role", "img");
  el.style.gridTemplateColumns = `repeat(${cols}, 1fr)`;
  el.style.aspectRatio = `${cols} / ${rows}`;
  const squares = [];
  for (let i = 0; i < rows * cols; i++) {
    const sq = html("div", "sq " + ((Math.floor(i / cols) + (i % cols)) % 2 ? "dark" : "light"));
    sq.dataset.square = i;
    el.appendChild(sq);
    squares.push(sq);
  }
  return squares;
}
