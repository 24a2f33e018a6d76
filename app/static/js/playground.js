// Puzzle Playground: boards, play by click / keys / swipe, and the animation player.
// No inline scripts anywhere (the Content-Security-Policy forbids them): everything binds from data attributes.
import { Stepper } from "./stepper.js";
import { onReady, plural } from "./common.js";
import { breakdown, decorate, undecorate } from "./heuristics.js";

(function () {
  "use strict";

  const STEP = { U: [-1, 0], D: [1, 0], L: [0, -1], R: [0, 1] };
  const INVERSE = { U: "D", D: "U", L: "R", R: "L" };
  const SLID = { U: "down", D: "up", L: "right", R: "left" };  // the tile goes where the blank came from

  // ---- A drawn board: tiles positioned by transform so every move slides. ------------------------------------
  class BoardView {
    constructor(element) {
      this.el = element;
      this.rows = +element.dataset.rows;
      this.cols = +element.dataset.cols;
      this.goal = element.dataset.goal.split(",").map(Number);
      this.tiles = new Map();
      this.interactive = Boolean(element.dataset.interactive);
      element.querySelectorAll(".tile").forEach((t) => this.tiles.set(+t.dataset.tile, t));
      element.style.aspectRatio = `${this.cols} / ${this.rows}`;
      this.listeners = [];
      this.set(element.dataset.tiles.split(",").map(Number));
      new ResizeObserver(() => this.fitFont()).observe(element);
    }
    set(cells) {
      this.cells = cells.slice();
      this.draw();
    }
    draw() {
      this.cells.forEach((tile, cell) => {
        if (!tile) return;
        const el = this.tiles.get(tile);
        const r = Math.floor(cell / this.cols), c = cell % this.cols;
        el.style.width = `${100 / this.cols}%`;
        el.style.height = `${100 / this.rows}%`;
        el.style.transform = `translate(${c * 100}%, ${r * 100}%)`;
        el.classList.toggle("home", this.goal[cell] === tile);
        if (this.interactive) el.setAttribute("aria-label", `${tile}: row ${r + 1}, column ${c + 1}${this.goal[cell] === tile ? ", home" : ""}`);
      });
      if (!this.interactive) {  // a watched board is one image: its name is the position, row by row
        const rows = [];
        for (let r = 0; r < this.rows; r++) rows.push(this.cells.slice(r * this.cols, (r + 1) * this.cols).map((t) => t || "blank").join(" "));
        this.el.setAttribute("aria-label", `${this.rows} by ${this.cols} puzzle: ${rows.join(", ")}`);
      }
      this.el.dataset.tiles = this.cells.join(",");
      this.el.classList.toggle("solved", this.isSolved());
      this.listeners.forEach((f) => f(this));
    }
    fitFont() {
      const cell = this.el.clientWidth / this.cols;
      this.el.style.fontSize = `${Math.max(10, cell * 0.42)}px`;
    }
    blank() { return this.cells.indexOf(0); }
    target(move) {
      const b = this.blank(), r = Math.floor(b / this.cols) + STEP[move][0], c = (b % this.cols) + STEP[move][1];
      return r >= 0 && r < this.rows && c >= 0 && c < this.cols ? r * this.cols + c : -1;
    }
    move(move) {
      const t = this.target(move);
      if (t < 0) return false;
      const b = this.blank();
      this.cells[b] = this.cells[t];
      this.cells[t] = 0;
      this.draw();
      return true;
    }
    isSolved() { return this.cells.every((t, i) => t === this.goal[i]); }
  }

  // ---- Playing by hand on the main board. --------------------------------------------------------------------
  function bindPlay(view) {
    let count = 0;
    const counter = document.getElementById("move-count");
    const status = document.getElementById("status");
    const tileInputs = document.querySelectorAll(".tiles-input");
    const share = document.getElementById("share-link");
    const compare = document.getElementById("compare-link");
    view.listeners.push(() => {
      const tiles = view.cells.join(",");
      tileInputs.forEach((i) => { i.value = tiles; });
      const url = new URL(window.location.href);
      ["random", "scramble", "seed"].forEach((k) => url.searchParams.delete(k));
      url.searchParams.set("tiles", tiles);
      window.history.replaceState(null, "", url);
      if (share) share.href = url.pathname + url.search;
      if (compare) compare.href = "/compare" + url.search;
      // A URL with a bad position shows its error over the goal it fell back to: that board is not a solved puzzle.
      const solved = view.isSolved() && (count > 0 || !document.getElementById("position-error"));
      view.el.classList.toggle("solved", solved);
      if (status) status.textContent = solved ? (count ? `Solved! ${plural(count, "move")}.` : "Solved!") : "";
    });
    // A move by the user while a solution is loaded stops its playback for good: the solution was for the position
    // before the move, so replaying it would end on an unsolved board. The player says so and disables itself.
    const played = (n, move) => {
      if (view.player) detach(view.player);
      count += n;
      if (counter) counter.textContent = count;
      view.draw();
      // said to screen readers: a tile moving is otherwise silent (the focused tile's new place is in its name)
      const region = document.getElementById("announcer");
      if (region && move) region.textContent = `${n > 1 ? `${n} tiles slid` : "Slid"} ${SLID[move]}${view.isSolved() ? ". Solved!" : ""}`;
    };
    view.resetCount = () => { count = 0; if (counter) counter.textContent = 0; };
    bindHeuristics(view);

    // A click on a tile in line with the blank slides the whole run of tiles between them.
    view.el.addEventListener("click", (event) => {
      const tileEl = event.target.closest(".tile");
      if (!tileEl || view.locked) return;
      const cell = view.cells.indexOf(+tileEl.dataset.tile), b = view.blank();
      const [tr, tc, br, bc] = [Math.floor(cell / view.cols), cell % view.cols, Math.floor(b / view.cols), b % view.cols];
      let move = null, steps = 0;
      if (tr === br) { move = tc > bc ? "R" : "L"; steps = Math.abs(tc - bc); }
      else if (tc === bc) { move = tr > br ? "D" : "U"; steps = Math.abs(tr - br); }
      if (!move) return;
      for (let i = 0; i < steps; i++) view.move(move);
      played(steps, move);
    });
    // Arrow keys slide a tile into the blank: the blank moves the opposite way.
    const keyMove = { ArrowUp: "D", ArrowDown: "U", ArrowLeft: "R", ArrowRight: "L" };
    document.addEventListener("keydown", (event) => {
      const move = keyMove[event.key];
      const tag = (event.target.tagName || "").toLowerCase();
      if (!move || view.locked || ["input", "select", "textarea"].includes(tag)) return;
      event.preventDefault();
      if (view.move(move)) played(1, move);
    });
    // A swipe moves the tile in the swipe's direction.
    let touch = null;
    view.el.addEventListener("touchstart", (e) => { touch = e.touches[0]; }, { passive: true });
    view.el.addEventListener("touchend", (e) => {
      if (!touch || view.locked) return;
      const end = e.changedTouches[0], dx = end.clientX - touch.clientX, dy = end.clientY - touch.clientY;
      touch = null;
      if (Math.max(Math.abs(dx), Math.abs(dy)) < 24) return;
      const move = Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "L" : "R") : (dy > 0 ? "U" : "D");
      if (view.move(move)) played(1, move);
    });
    view.draw();
  }

  // "Show the heuristic": the engine's breakdown of h for the position on the board, redrawn after every move.
  function bindHeuristics(view) {
    const box = document.getElementById("show-h");
    const summary = document.getElementById("h-summary");
    if (!box) return;
    const update = async () => {
      if (!box.checked) { undecorate(view.tiles); if (summary) summary.innerHTML = ""; return; }
      const cells = view.cells.slice();
      let data;
      try { data = await breakdown(`${view.rows}x${view.cols}`, view.goal.join(","), cells); } catch (e) { if (summary) summary.textContent = e.message; return; }
      if (box.checked && cells.join() === view.cells.join()) decorate(cells, data, (t) => view.tiles.get(t), summary);
    };
    box.addEventListener("change", update);
    view.listeners.push(update);
  }

  function detach(stepper) {
    stepper.pause();
    const root = stepper.root;
    root.querySelectorAll(".player-controls button, .player-controls input").forEach((el) => { el.disabled = true; });
    root.dataset.stale = "1";
    const note = root.querySelector(".stale-note");
    if (note) note.hidden = false;
    const main = viewOf(document.getElementById("board"));
    main.player = null;
  }

  // ---- The player: one or several boards along their move strings, all in step, driven by the shared Stepper.
  function Player(root, tracks) {  // tracks: [{view, start, moves, movesEl}]
    const stepper = new Stepper(root);
    let current = 0;
    const total = Math.max(0, ...tracks.map((t) => t.moves.length));
    stepper.load(total, (k) => {
      if (k === 0) { tracks.forEach((t) => t.view.set(t.start)); current = 0; }
      for (; current < k; current++) tracks.forEach((t) => { if (current < t.moves.length) t.view.move(t.moves[current]); });
      while (current > k) {
        current -= 1;
        tracks.forEach((t) => { if (current < t.moves.length) t.view.move(INVERSE[t.moves[current]]); });
      }
      tracks.forEach((t) => {
        if (!t.movesEl) return;
        t.movesEl.querySelectorAll(".mv").forEach((m) => {
          const i = +m.dataset.i;
          m.classList.toggle("current", i === k - 1);
          m.classList.toggle("done", i < k - 1);
        });
      });
    });
    return stepper;
  }

  const views = new WeakMap();
  function viewOf(el) {
    if (!views.has(el)) views.set(el, new BoardView(el));
    return views.get(el);
  }

  function bind(root) {
    root.querySelectorAll(".board").forEach((el) => {
      const view = viewOf(el);
      if (el.dataset.interactive && !el.dataset.bound) { el.dataset.bound = "1"; bindPlay(view); }
    });
    root.querySelectorAll('[data-player="board"]').forEach((res) => {
      if (res.dataset.bound || res.dataset.status !== "solved") return;
      res.dataset.bound = "1";
      const main = viewOf(document.getElementById("board"));
      if (main.player) main.player.pause();
      const start = res.dataset.start.split(",").map(Number);
      if (main.resetCount) main.resetCount();
      main.player = Player(res, [{ view: main, start, moves: res.dataset.moves, movesEl: res.querySelector(".moves") }]);
      // On a phone the form is far below the board: bring the board (and the player just under it) into view.
      const top = main.el.getBoundingClientRect().top;
      if (top < 0 || top > window.innerHeight / 2) main.el.scrollIntoView({ block: "start" });
      main.player.play();
    });
    root.querySelectorAll('[data-player="group"]').forEach((group) => {
      if (group.dataset.bound) return;
      group.dataset.bound = "1";
      const tracks = [...group.querySelectorAll(".compare-item")].map((item) => ({
        view: viewOf(item.querySelector(".board")),
        start: item.dataset.start.split(",").map(Number),
        moves: item.dataset.status === "solved" ? item.dataset.moves : "",
        movesEl: item.querySelector(".moves"),
      }));
      const controls = group.querySelector(".player-controls");
      Player(group, tracks).play();
      if (controls) controls.dataset.ready = "1";
    });
  }

  // The size and goal selects open the new shape straight away.
  function bindForms() {
    document.querySelectorAll(".position-form select").forEach((select) => {
      select.addEventListener("change", () => {
        const form = select.form;
        const url = new URL(form.action, window.location.href);
        url.searchParams.set("size", form.elements.size.value);
        url.searchParams.set("goal", form.elements.goal.value);
        url.searchParams.set("random", "1");
        window.location.href = url;
      });
    });
  }

  onReady(() => { bind(document); bindForms(); });
  // Fragments swapped in by htmx (results, finished jobs) bind here; bind() skips what is already bound.
  document.addEventListener("htmx:afterSettle", () => bind(document));
})();
