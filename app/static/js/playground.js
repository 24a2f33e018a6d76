// Puzzle Playground: boards, play by click / keys / swipe, and the animation player.
// No inline scripts anywhere (the Content-Security-Policy forbids them): everything binds from data attributes.
import { Stepper } from "./stepper.js";
import { announce, copyLink, onReady, plural } from "./common.js";
import { breakdown, decorate, undecorate } from "./heuristics.js";

(function () {
  const STEP = { U: [-1, 0], D: [1, 0], L: [0, -1], R: [0, 1] };
  const INVERSE = { U: "D", D: "U", L: "R", R: "L" };
  const SLID = { U: "down", D: "up", L: "right", R: "left" }; // the tile goes where the blank came from

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
        const r = Math.floor(cell / this.cols),
          c = cell % this.cols;
        el.style.width = `${100 / this.cols}%`;
        el.style.height = `${100 / this.rows}%`;
        el.style.transform = `translate(${c * 100}%, ${r * 100}%)`;
        el.classList.toggle("home", this.goal[cell] === tile);
        if (this.interactive)
          el.setAttribute(
            "aria-label",
            `${tile}: row ${r + 1}, column ${c + 1}${this.goal[cell] === tile ? ", home" : ""}`,
          );
      });
      if (!this.interactive) {
        // a watched board is one image: its name is the position, row by row
        const rows = [];
        for (let r = 0; r < this.rows; r++)
          rows.push(
            this.cells
              .slice(r * this.cols, (r + 1) * this.cols)
              .map((t) => t || "blank")
              .join(" "),
          );
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
    blank() {
      return this.cells.indexOf(0);
    }
    target(move) {
      const b = this.blank(),
        r = Math.floor(b / this.cols) + STEP[move][0],
        c = (b % this.cols) + STEP[move][1];
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
    isSolved() {
      return this.cells.every((t, i) => t === this.goal[i]);
    }
  }

  // ---- Playing by hand on the main board: moves, undo and redo, restart, the clock and this browser's bests. ----
  const clock = (seconds) => `${Math.floor(seconds / 60)}:${String(Math.floor(seconds % 60)).padStart(2, "0")}`;

  function bindPlay(view) {
    let count = 0;
    const start = view.cells.slice();
    const past = [],
      future = []; // {cells, count} before each of the player's moves, and those undone
    let hinted = false; // a game played with hints is no record
    let began = null,
      stopped = null,
      ticking = null;
    const $ = (id) => document.getElementById(id);
    const counter = $("move-count"),
      timerEl = $("timer"),
      status = $("status"),
      best = $("best");
    const undoBtn = $("undo-button"),
      redoBtn = $("redo-button"),
      restartBtn = $("restart-button");
    const again = $("play-again"),
      hintBox = $("hint-result");
    const tileInputs = document.querySelectorAll(".tiles-input");
    const share = $("share-link");
    const compare = $("compare-link");
    const bestKey = best ? `puzzle-playground:best:${best.dataset.size}` : null;
    const elapsed = () => (began === null ? 0 : ((stopped ?? Date.now()) - began) / 1000);
    const readBest = () => {
      try {
        return JSON.parse(localStorage.getItem(bestKey)) || {};
      } catch {
        return {};
      }
    };
    const showBest = (note) => {
      if (!best) return;
      const b = readBest();
      best.textContent = b.moves
        ? `${note || ""}Best in this browser on this board: ${plural(b.moves, "move")}, ${clock(b.seconds)}.`
        : note || "";
    };
    const tick = () => {
      if (timerEl) timerEl.textContent = clock(elapsed());
    };
    const stopClock = () => {
      if (ticking) window.clearInterval(ticking);
      ticking = null;
      stopped = stopped ?? Date.now();
      tick();
    };
    const resetClock = () => {
      if (ticking) window.clearInterval(ticking);
      ticking = null;
      began = stopped = null;
      tick();
    };
    const refresh = () => {
      if (counter) counter.textContent = count;
      if (undoBtn) undoBtn.disabled = !past.length;
      if (redoBtn) redoBtn.disabled = !future.length;
      if (restartBtn) restartBtn.disabled = !past.length && !future.length;
    };
    view.listeners.push(() => {
      const tiles = view.cells.join(",");
      tileInputs.forEach((i) => {
        i.value = tiles;
      });
      const url = new URL(window.location.href);
      ["random", "scramble", "seed", "distance", "at"].forEach((k) => url.searchParams.delete(k));
      url.searchParams.set("tiles", tiles);
      window.history.replaceState(null, "", url);
      if (share) share.href = url.pathname + url.search;
      if (compare) compare.href = "/compare" + url.search;
      // A URL with a bad position shows its error over the goal it fell back to: that board is not a solved puzzle.
      const solved = view.isSolved() && (count > 0 || !$("position-error"));
      view.el.classList.toggle("solved", solved);
      if (status && !solved) status.textContent = "";
      if (status && solved && !count) status.textContent = "Solved!";
    });
    // The solved moment: the clock stops, a record is kept (not with hints), and "Play again" is offered.
    const finish = () => {
      stopClock();
      const seconds = elapsed(),
        b = readBest();
      let note = "";
      if (hinted) note = "Played with hints, so not a record. ";
      else if (bestKey) {
        const fewer = !b.moves || count < b.moves,
          faster = !b.seconds || seconds < b.seconds;
        if (fewer || faster) {
          note = `New best${fewer && faster ? "" : fewer ? " (moves)" : " (time)"}! `;
          try {
            localStorage.setItem(
              bestKey,
              JSON.stringify({ moves: fewer ? count : b.moves, seconds: faster ? seconds : b.seconds }),
            );
          } catch {
            /* private mode: no records */
          }
        }
      }
      if (status) status.textContent = `Solved! ${plural(count, "move")}, ${clock(seconds)}.`;
      showBest(note);
      if (again) {
        again.hidden = false;
      }
    };
    const moved = () => {
      if (hintBox) hintBox.innerHTML = "";
      view.tiles.forEach((el) => el.classList.remove("hinted"));
      refresh();
      if (view.isSolved() && count > 0) finish();
      else if (again) again.hidden = true;
    };
    // A move by the user while a solution is loaded stops its playback for good: the solution was for the position
    // before the move, so replaying it would end on an unsolved board. The player says so and disables itself.
    const played = (n, move, before) => {
      if (view.player) detach(view.player);
      past.push({ cells: before, count });
      future.length = 0;
      count += n;
      if (began === null || stopped !== null) {
        began = Date.now() - elapsed() * 1000;
        stopped = null;
        ticking = ticking || window.setInterval(tick, 500);
      }
      view.draw();
      moved();
      // said to screen readers: a tile moving is otherwise silent (the focused tile's new place is in its name)
      if (move) announce(`${n > 1 ? `${n} tiles slid` : "Slid"} ${SLID[move]}${view.isSolved() ? ". Solved!" : ""}`);
    };
    const jump = (from, to) => {
      // undo and redo: one of the player's moves (a whole slid run) at a time
      if (!from.length) return;
      if (view.player) detach(view.player);
      to.push({ cells: view.cells.slice(), count });
      const state = from.pop();
      count = state.count;
      view.set(state.cells);
      moved();
    };
    if (undoBtn) undoBtn.addEventListener("click", () => jump(past, future));
    if (redoBtn) redoBtn.addEventListener("click", () => jump(future, past));
    if (restartBtn)
      restartBtn.addEventListener("click", () => {
        if (view.player) detach(view.player);
        past.length = 0;
        future.length = 0;
        count = 0;
        hinted = false;
        resetClock();
        view.set(start);
        moved();
        showBest();
      });
    document.addEventListener("htmx:beforeRequest", (event) => {
      if (event.detail.elt && event.detail.elt.classList && event.detail.elt.classList.contains("hint-form"))
        hinted = true;
    });
    view.resetCount = () => {
      count = 0;
      past.length = 0;
      future.length = 0;
      resetClock();
      refresh();
    };
    bindHeuristics(view);

    // A click on a tile in line with the blank slides the whole run of tiles between them.
    view.el.addEventListener("click", (event) => {
      const tileEl = event.target.closest(".tile");
      if (!tileEl || view.locked) return;
      const cell = view.cells.indexOf(+tileEl.dataset.tile),
        b = view.blank();
      const [tr, tc, br, bc] = [
        Math.floor(cell / view.cols),
        cell % view.cols,
        Math.floor(b / view.cols),
        b % view.cols,
      ];
      let move = null,
        steps = 0;
      if (tr === br) {
        move = tc > bc ? "R" : "L";
        steps = Math.abs(tc - bc);
      } else if (tc === bc) {
        move = tr > br ? "D" : "U";
        steps = Math.abs(tr - br);
      }
      if (!move) return;
      const before = view.cells.slice();
      for (let i = 0; i < steps; i++) view.move(move);
      played(steps, move, before);
    });
    // Arrow keys slide a tile into the blank: the blank moves the opposite way.
    const keyMove = { ArrowUp: "D", ArrowDown: "U", ArrowLeft: "R", ArrowRight: "L" };
    document.addEventListener("keydown", (event) => {
      const move = keyMove[event.key];
      const tag = (event.target.tagName || "").toLowerCase();
      if (!move || view.locked || ["input", "select", "textarea"].includes(tag)) return;
      event.preventDefault();
      const before = view.cells.slice();
      if (view.move(move)) played(1, move, before);
    });
    // A swipe moves the tile in the swipe's direction.
    let touch = null;
    view.el.addEventListener(
      "touchstart",
      (e) => {
        touch = e.touches[0];
      },
      { passive: true },
    );
    view.el.addEventListener("touchend", (e) => {
      if (!touch || view.locked) return;
      const end = e.changedTouches[0],
        dx = end.clientX - touch.clientX,
        dy = end.clientY - touch.clientY;
      touch = null;
      if (Math.max(Math.abs(dx), Math.abs(dy)) < 24) return;
      const move = Math.abs(dx) > Math.abs(dy) ? (dx > 0 ? "L" : "R") : dy > 0 ? "U" : "D";
      const before = view.cells.slice();
      if (view.move(move)) played(1, move, before);
    });
    view.draw();
    refresh();
    showBest();
  }

  // "Show the heuristic": the engine's breakdown of h for the position on the board, redrawn after every move.
  function bindHeuristics(view) {
    const box = document.getElementById("show-h");
    const summary = document.getElementById("h-summary");
    if (!box) return;
    const update = async () => {
      if (!box.checked) {
        undecorate(view.tiles);
        if (summary) summary.innerHTML = "";
        return;
      }
      const cells = view.cells.slice();
      let data;
      try {
        data = await breakdown(`${view.rows}x${view.cols}`, view.goal.join(","), cells);
      } catch (e) {
        if (summary) summary.textContent = e.message;
        return;
      }
      if (box.checked && cells.join() === view.cells.join()) decorate(cells, data, (t) => view.tiles.get(t), summary);
    };
    box.addEventListener("change", update);
    view.listeners.push(update);
  }

  function detach(stepper) {
    stepper.pause();
    const root = stepper.root;
    root.querySelectorAll(".player-controls button, .player-controls input").forEach((el) => {
      el.disabled = true;
    });
    root.dataset.stale = "1";
    const note = root.querySelector(".stale-note");
    if (note) note.hidden = false;
    const main = viewOf(document.getElementById("board"));
    main.player = null;
  }

  // ---- The player: one or several boards along their move strings, all in step, driven by the shared Stepper.
  function Player(root, tracks) {
    // tracks: [{view, start, moves, movesEl}]
    const stepper = new Stepper(root);
    let current = 0;
    const total = Math.max(0, ...tracks.map((t) => t.moves.length));
    stepper.load(total, (k) => {
      if (k === 0) {
        tracks.forEach((t) => t.view.set(t.start));
        current = 0;
      }
      for (; current < k; current++)
        tracks.forEach((t) => {
          if (current < t.moves.length) t.view.move(t.moves[current]);
        });
      while (current > k) {
        current -= 1;
        tracks.forEach((t) => {
          if (current < t.moves.length) t.view.move(INVERSE[t.moves[current]]);
        });
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
      if (el.dataset.interactive && !el.dataset.bound) {
        el.dataset.bound = "1";
        bindPlay(view);
      }
    });
    root.querySelectorAll('[data-player="board"]').forEach((res) => {
      // a solve's own page (jobs/answer.html) has no board of the Play page to animate
      if (res.dataset.bound || res.dataset.status !== "solved" || !document.getElementById("board")) return;
      res.dataset.bound = "1";
      const main = viewOf(document.getElementById("board"));
      if (main.player) main.player.pause();
      const start = res.dataset.start.split(",").map(Number);
      if (main.resetCount) main.resetCount();
      main.player = Player(res, [
        { view: main, start, moves: res.dataset.moves, movesEl: res.querySelector(".moves") },
      ]);
      // The focus goes to the player (Space pauses it), and the board and the player are brought on screen together:
      // on a phone the form is far below the board.
      const play = res.querySelector('[data-act="play"]');
      if (play) play.focus({ preventScroll: true });
      const controls = res.querySelector(".player-controls") || res;
      const top = main.el.getBoundingClientRect().top;
      if (top < 0 || controls.getBoundingClientRect().bottom > window.innerHeight)
        main.el.scrollIntoView({ block: "start" });
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

  // A hint marks the tile it names until the next move.
  function bindHint(root) {
    const answer = root.querySelector(".hint-answer[data-hint-tile]");
    const el = document.getElementById("board");
    if (!answer || !el || answer.dataset.bound) return;
    answer.dataset.bound = "1";
    const tile = viewOf(el).tiles.get(+answer.dataset.hintTile);
    if (tile) tile.classList.add("hinted");
  }

  // A fragment swapped into a result box takes the focus with it, so a keyboard user lands on the answer (a
  // solution's player takes it in bind()); a box that polls keeps the focus it had.
  function focusResult(target) {
    if (!target || !["solve-result", "hint-result"].includes(target.id)) return;
    const active = document.activeElement;
    if (active && active !== document.body && !target.contains(active) && !active.closest("form")) return;
    if (target.querySelector('[data-player="board"][data-bound]')) return;
    const first = target.querySelector("button, a[href]") || target;
    if (first === target) target.tabIndex = -1;
    first.focus({ preventScroll: true });
  }

  // "Solve from here" says it is busy from the click until the answer or a cancel (a job's progress polls in
  // between), and the box its answer goes to is brought on screen when the solve starts: on a laptop that box is
  // under the board, below the fold, and the button beside the board would otherwise show no reaction at all.
  function bindSolve() {
    const form = document.querySelector(".solve-form");
    const button = document.getElementById("solve-button");
    const box = document.getElementById("solve-result");
    if (!form || !button || !box) return;
    const label = button.textContent,
      off = button.disabled; // off: no solve for this position at all
    let asking = false;
    const update = () => {
      const busy = asking || Boolean(box.querySelector(".job:not(.finished)"));
      button.disabled = off || busy;
      button.textContent = busy ? "Solving…" : label;
      if (busy) button.setAttribute("aria-busy", "true");
      else button.removeAttribute("aria-busy");
      document.body.classList.toggle("solve-running", busy);
    };
    // progress that was wholly on screen stays so as it grows; progress scrolled away from is left where it is
    let watched = false;
    form.addEventListener("htmx:beforeRequest", () => {
      asking = true;
      update();
    });
    form.addEventListener("htmx:afterRequest", () => {
      asking = false;
      update();
    });
    document.addEventListener("htmx:beforeSwap", (event) => {
      const target = event.detail && event.detail.target;
      watched = Boolean(target && target !== box && box.contains(target) && onScreen(target));
    });
    document.addEventListener("htmx:afterSettle", (event) => {
      update(); // a job's progress replaced, finished, cancelled or put back after a reload
      if ((event.detail && event.detail.target === box) || watched) reveal(box);
      watched = false;
    });
    update();
  }

  function onScreen(element) {
    // within a pixel: a scroll stops on whole pixels, a layout does not
    const place = element.getBoundingClientRect();
    return place.top > -1 && place.bottom < window.innerHeight + 1;
  }

  // Brought on screen only when it is not (scrolled no further than needed); a solution's player does its own, with
  // the board, in bind().
  function reveal(box) {
    if (box.querySelector('[data-player="board"][data-bound]')) return;
    const shown = box.firstElementChild || box;
    if (!onScreen(shown)) shown.scrollIntoView({ block: "nearest" });
  }

  // A race's "Copy link" (results/compare.html): the whole address, or the address shown when the clipboard is refused.
  document.addEventListener("click", async (event) => {
    const button = event.target.closest("[data-copy-link]");
    if (!button) return;
    const url = new URL(button.dataset.copyLink, window.location.href).href;
    const status = button.parentElement.querySelector('[role="status"]');
    await copyLink(url, status);
  });

  onReady(() => {
    bind(document);
    bindHint(document);
    bindForms();
    bindSolve();
  });
  // Fragments swapped in by htmx (results, finished jobs) bind here; bind() skips what is already bound.
  document.addEventListener("htmx:afterSettle", (event) => {
    bind(document);
    bindHint(document);
    focusResult(event.detail && event.detail.target);
  });
})();
