// Puzzle Playground: the Rectangle-out canvas. It draws the box, the hole and the plates to scale, lets a person
// drag and turn plates (the server computes where each plate stops, so nothing ever overlaps), and plays a search's
// answer with the shared PuzzleStepper. The current position is kept in data-state for the page and its tests.
import { Stepper } from "./stepper.js";
import { fetchJSON, onReady } from "./common.js";

(function () {
  const VIEW = { left: -1.5, right: 14.5, bottom: -3.5, top: 14.5 }; // cm shown on the canvas
  const TURN_STEP = (2 * Math.PI) / 180;
  const NUDGE = 0.1;
  const FRAMES_PER_SLIDE = 16;

  function corners(pose, half) {
    const [x, y, a] = pose;
    const c = Math.cos(a),
      s = Math.sin(a);
    return [
      [-1, -1],
      [1, -1],
      [1, 1],
      [-1, 1],
    ].map(([sx, sy]) => {
      const px = sx * half[0],
        py = sy * half[1];
      return [x + c * px - s * py, y + s * px + c * py];
    });
  }

  function inside(pose, half, point) {
    const dx = point[0] - pose[0],
      dy = point[1] - pose[1];
    const c = Math.cos(pose[2]),
      s = Math.sin(pose[2]);
    return Math.abs(c * dx + s * dy) <= half[0] && Math.abs(-s * dx + c * dy) <= half[1];
  }

  class RectOut {
    constructor(root) {
      this.root = root;
      this.canvas = root.querySelector("canvas");
      this.ctx = this.canvas.getContext("2d");
      this.start = JSON.parse(root.dataset.start);
      this.state = JSON.parse(root.dataset.current);
      this.size = +root.dataset.size;
      this.hole = JSON.parse(root.dataset.hole);
      this.half = [+root.dataset.length / 2, +root.dataset.thickness / 2];
      this.target = +root.dataset.target;
      this.chosen = this.target;
      this.partner = null; // a second plate that turns with the chosen one (the paper's set rotation)
      this.pairing = false; // the next plate clicked becomes the partner (the button, for touch screens)
      this.pivots = [];
      this.drag = null;
      this.busy = false;
      this.status = root.querySelector('[data-role="status"]');
      this.form = document.getElementById("rectout-solve");
      this.player = root.querySelector(".rectout-player");
      this.stepper = new Stepper(this.player);
      this.caption = this.player.querySelector('[data-role="caption"]');
      this.bind();
      this.show(this.state, [], false);
    }

    // world (cm, y up) <-> canvas pixels
    scale() {
      return this.canvas.width / (VIEW.right - VIEW.left);
    }
    toPixel([x, y]) {
      const k = this.scale();
      return [(x - VIEW.left) * k, (VIEW.top - y) * k];
    }
    toWorld(event) {
      const box = this.canvas.getBoundingClientRect();
      const px = ((event.clientX - box.left) * this.canvas.width) / box.width;
      const py = ((event.clientY - box.top) * this.canvas.height) / box.height;
      const k = this.scale();
      return [VIEW.left + px / k, VIEW.top - py / k];
    }

    show(state, pivots = [], share = true) {
      this.state = state;
      this.pivots = pivots;
      const text = JSON.stringify(state);
      this.root.dataset.state = text;
      if (this.form) this.form.elements.state.value = text;
      if (share) {
        // the address holds the position, so a reload or a shared link opens it
        const url = new URL(window.location.href);
        url.searchParams.set("state", JSON.stringify(state.map((p) => p.map((v) => +v.toFixed(9)))));
        window.history.replaceState(null, "", url);
      }
      this.draw();
    }

    polygon(points) {
      const ctx = this.ctx;
      ctx.beginPath();
      points.forEach((p, i) => {
        const [u, v] = this.toPixel(p);
        if (i) ctx.lineTo(u, v);
        else ctx.moveTo(u, v);
      });
      ctx.closePath();
    }

    draw() {
      const ctx = this.ctx,
        n = this.size,
        wall = 0.6;
      ctx.clearRect(0, 0, this.canvas.width, this.canvas.height);
      ctx.fillStyle = "#f8f9fc";
      this.polygon([
        [0, 0],
        [n, 0],
        [n, n],
        [0, n],
      ]);
      ctx.fill();
      ctx.fillStyle = "#3d4456";
      for (const r of [
        [-wall, -wall, 0, n + wall],
        [n, -wall, n + wall, n + wall],
        [-wall, n, n + wall, n + wall],
        [-wall, -wall, this.hole[0], 0],
        [this.hole[1], -wall, n + wall, 0],
      ]) {
        this.polygon([
          [r[0], r[1]],
          [r[2], r[1]],
          [r[2], r[3]],
          [r[0], r[3]],
        ]);
        ctx.fill();
      }
      this.state.forEach((pose, i) => {
        const target = i === this.target;
        this.polygon(corners(pose, this.half));
        ctx.fillStyle = target ? "#f08c00" : "#4c6ef5";
        ctx.globalAlpha = 0.92;
        ctx.fill();
        ctx.globalAlpha = 1;
        const picked = i === this.chosen || i === this.partner;
        ctx.lineWidth = picked ? 3 : 1.5;
        ctx.strokeStyle = picked ? "#1d2433" : "#ffffff";
        ctx.setLineDash(i === this.partner ? [8, 5] : []);
        ctx.stroke();
        ctx.setLineDash([]);
      });
      ctx.fillStyle = "#c92a2a";
      for (const p of this.pivots) {
        // the points a turn keeps in contact: its pivot
        const [u, v] = this.toPixel(p);
        ctx.beginPath();
        ctx.arc(u, v, 6, 0, 2 * Math.PI);
        ctx.fill();
      }
      this.state.forEach((pose, i) => {
        // names last, so a pivot on a plate's centre does not hide them
        const [u, v] = this.toPixel(pose);
        ctx.fillStyle = "#ffffff";
        ctx.font = "600 15px system-ui, sans-serif";
        ctx.textAlign = "center";
        ctx.textBaseline = "middle";
        ctx.fillText(i === this.target ? "target" : String(i + 1), u, v + (this.pivots.length ? 16 : 0));
      });
    }

    async ask(url, body) {
      return fetchJSON(url, { state: this.state, ...body });
    }

    async act(url, body) {
      if (this.busy) return null;
      this.busy = true;
      try {
        const data = await this.ask(url, body);
        this.show(data.state);
        this.announce(data.out);
        return data;
      } catch (error) {
        this.status.textContent = error.message;
        return null;
      } finally {
        this.busy = false;
      }
    }

    announce(out) {
      this.root.dataset.out = out ? "1" : "0";
      this.root.classList.toggle("solved", !!out);
      this.status.textContent = out ? "Out! The target left the box." : "";
    }

    // A drag asks the server to slide the plate toward the pointer; while one request is out the next waits, and
    // the last one is sent when the pointer is released, so the plate ends where the pointer says or at contact.
    async follow() {
      if (!this.drag || this.busy) return;
      const pose = this.state[this.drag.piece];
      const dx = this.drag.want[0] - pose[0],
        dy = this.drag.want[1] - pose[1];
      if (Math.hypot(dx, dy) < 1e-3) return;
      const sent = this.drag.want.slice();
      await this.act(this.root.dataset.slideUrl, { piece: this.drag.piece, dx, dy });
      if (this.drag && (this.drag.want[0] !== sent[0] || this.drag.want[1] !== sent[1])) this.follow();
    }

    bind() {
      const canvas = this.canvas;
      canvas.addEventListener("pointerdown", (event) => {
        const point = this.toWorld(event);
        const piece = this.state.findIndex((pose) => inside(pose, this.half, point));
        if (piece < 0) return;
        this.stepper.pause();
        if ((event.shiftKey || this.pairing) && piece !== this.chosen) {
          // pick (or drop) the partner
          this.partner = this.partner === piece ? null : piece;
          this.pairing = false;
          this.draw();
          event.preventDefault();
          return;
        }
        if (piece === this.partner) [this.chosen, this.partner] = [piece, this.chosen];
        else if (piece !== this.chosen) [this.chosen, this.partner] = [piece, null];
        this.root.focus({ preventScroll: true }); // a scroll here would move the plate under the pointer
        const pose = this.state[piece];
        this.drag = { piece, offset: [pose[0] - point[0], pose[1] - point[1]], want: [pose[0], pose[1]] };
        this.root.dataset.dragging = "1"; // until the drag's last request has landed (the tests wait for it)
        canvas.setPointerCapture(event.pointerId);
        this.draw();
        event.preventDefault();
      });
      canvas.addEventListener("pointermove", (event) => {
        if (!this.drag) return;
        const point = this.toWorld(event);
        this.drag.want = [point[0] + this.drag.offset[0], point[1] + this.drag.offset[1]];
        this.follow();
      });
      const release = async () => {
        if (!this.drag) return;
        while (this.busy) await new Promise((done) => window.setTimeout(done, 20));
        await this.follow();
        this.drag = null;
        this.root.dataset.dragging = "0";
      };
      canvas.addEventListener("pointerup", release);
      canvas.addEventListener("pointercancel", release);
      this.root.addEventListener("keydown", (event) => {
        const keys = {
          q: ["turn", TURN_STEP],
          e: ["turn", -TURN_STEP],
          ArrowLeft: ["slide", [-NUDGE, 0]],
          ArrowRight: ["slide", [NUDGE, 0]],
          ArrowUp: ["slide", [0, NUDGE]],
          ArrowDown: ["slide", [0, -NUDGE]],
        };
        const found = keys[event.key] || keys[event.key.toLowerCase()];
        if (!found) return;
        event.preventDefault();
        if (found[0] === "turn") this.turn(found[1]);
        else this.act(this.root.dataset.slideUrl, { piece: this.chosen, dx: found[1][0], dy: found[1][1] });
      });
      this.root.querySelectorAll("[data-act]").forEach((button) => {
        const act = button.dataset.act;
        if (act === "turn-left") button.addEventListener("click", () => this.turn(TURN_STEP));
        if (act === "turn-right") button.addEventListener("click", () => this.turn(-TURN_STEP));
        if (act === "pair")
          button.addEventListener("click", () => {
            this.pairing = this.partner === null;
            this.partner = null;
            this.status.textContent = this.pairing ? "Click the plate to turn with the chosen one." : "";
            this.draw();
          });
        if (act === "reset")
          button.addEventListener("click", () => {
            this.stepper.pause();
            [this.partner, this.pairing] = [null, false];
            this.player.hidden = true;
            this.show(this.start.map((p) => p.slice()));
            this.announce(false);
          });
      });
    }

    turn(angle) {
      const partner = this.partner === null ? {} : { partner: this.partner };
      return this.act(this.root.dataset.turnUrl, { piece: this.chosen, angle, ...partner });
    }

    // A search's answer as frames: every motion's sampled poses of the plates it moves (one plate, or two turning
    // together); translations are straight, so they are interpolated here.
    play(solution) {
      const frames = [{ state: solution.start, pivots: [], caption: "the start" }];
      solution.motions.forEach((motion, index) => {
        const path = motion.family === "translation" ? this.interpolate(motion.path) : motion.path;
        const caption = `move ${index + 1} of ${solution.motions.length}: ${motion.label}`;
        const before = frames[frames.length - 1].state;
        path.slice(1).forEach((poses) => {
          const state = before.map((p) => p.slice());
          motion.pieces.forEach((piece, j) => {
            state[piece] = poses[j];
          });
          // plates turning together each turn about their own centre while they slide: show those
          const pivots = motion.kind === "fan" ? poses.map((p) => [p[0], p[1]]) : motion.pivots;
          frames.push({ state, pivots, caption });
        });
      });
      this.player.hidden = false;
      this.stepper.load(frames.length - 1, (step) => {
        const frame = frames[step];
        this.show(frame.state, step === frames.length - 1 ? [] : frame.pivots, false);
        this.caption.textContent = frame.caption;
        this.announce(step === frames.length - 1 && solution.status === "solved");
      });
      this.stepper.play();
    }

    // A translation's path is its corners (a diagonal that slid on into a corner has several legs): straight
    // between them.
    interpolate(points) {
      const out = [points[0]];
      points.slice(1).forEach((to, leg) => {
        const from = points[leg];
        for (let k = 1; k <= FRAMES_PER_SLIDE; k += 1) {
          const t = k / FRAMES_PER_SLIDE;
          out.push(from.map((a, j) => [a[0] + (to[j][0] - a[0]) * t, a[1] + (to[j][1] - a[1]) * t, a[2]]));
        }
      });
      return out;
    }
  }

  let board = null;
  onReady(() => {
    const root = document.getElementById("rectout");
    if (root) board = new RectOut(root);
  });
  document.addEventListener("htmx:afterSettle", () => {
    document.querySelectorAll(".rectout-result[data-solution]:not([data-played])").forEach((el) => {
      el.dataset.played = "1";
      const solution = JSON.parse(el.dataset.solution);
      if (board && solution.motions.length) board.play(solution);
    });
  });
})();
