// What the JavaScript's unit tests share: the recorded searches (tests/js/fixtures/, written from /api/step by
// tests/app/test_js_fixtures.py) and a board's moves, done here apart from the code under test.
import { readFileSync } from "node:fs";

export function answer(name) {
  return JSON.parse(readFileSync(new URL(`./fixtures/${name}.json`, import.meta.url), "utf8"));
}

// The board after the blank travels along moves (U D L R), cells row by row, 0 the blank.
export function slide(cells, cols, moves) {
  const board = [...cells];
  const step = { U: -cols, D: cols, L: -1, R: 1 };
  for (const move of moves) {
    const blank = board.indexOf(0);
    const to = blank + step[move];
    const sameRow = move === "U" || move === "D" || Math.floor(to / cols) === Math.floor(blank / cols);
    if (to < 0 || to >= board.length || !sameRow) throw new Error(`${move} leaves the board`);
    [board[blank], board[to]] = [board[to], board[blank]];
  }
  return board;
}

// The actions from the root to a node, read from the trace's parent links.
export function actionsTo(nodes, id) {
  const actions = [];
  for (let a = id; nodes[a].parent !== null; a = nodes[a].parent) actions.unshift(nodes[a].action);
  return actions;
}
