// Puzzle Playground: the one animation controller. It binds the controls of partials/player_controls.html (start,
// step back, play/pause, step forward, end, speed) to any render(step) function; the solution player, the compare
// view and every teaching view use it.
export class Stepper {
  constructor(root) {
    this.root = root;
    this.total = 0;
    this.step = 0;
    this.timer = null;
    this.speed = 5;
    this.render = () => {};
    this.listeners = [];
    this.stepEl = root.querySelector('[data-role="step"]');
    this.totalEl = root.querySelector('[data-role="total"]');
    this.playBtn = root.querySelector('[data-act="play"]');
    root.querySelectorAll("[data-act]").forEach((el) => {
      if (el.dataset.act === "speed") {
        el.max = "100";
        const update = () => {
          this.speed = +el.value;
          if (this.timer) {
            this.pause();
            this.play();
          }
        };
        el.addEventListener("input", update);
        this.speed = +el.value;
      } else {
        el.addEventListener("click", () => this[el.dataset.act === "play" ? "toggle" : el.dataset.act]());
      }
    });
  }
  load(total, render) {
    this.pause();
    this.total = total;
    this.render = render;
    if (this.totalEl) this.totalEl.textContent = total;
    this.root.dataset.loaded = "1";
    this.goTo(0);
  }
  goTo(step) {
    this.step = Math.max(0, Math.min(this.total, step));
    this.render(this.step);
    if (this.stepEl) this.stepEl.textContent = this.step;
    this.root.dataset.step = this.step;
    this.root.dataset.done = this.step >= this.total ? "1" : "0";
    this.listeners.forEach((f) => f(this.step));
  }
  reset() {
    this.pause();
    this.goTo(0);
  }
  end() {
    this.pause();
    this.goTo(this.total);
  }
  forward() {
    if (this.step >= this.total) {
      this.pause();
      return;
    }
    this.goTo(this.step + 1);
    if (this.step >= this.total) this.pause();
  }
  back() {
    this.pause();
    this.goTo(this.step - 1);
  }
  play() {
    if (this.step >= this.total) this.goTo(0);
    // Up to 20 steps a second the slider is linear; beyond, it grows geometrically to about 1,000 steps a second
    // (a knight's tour takes 10,000 steps), drawing every few steps rather than faster than the screen.
    const rate = this.speed <= 20 ? this.speed : 20 * Math.pow(1.05, this.speed - 20);
    const interval = Math.max(16, 1000 / rate);
    const stride = Math.max(1, Math.round((rate * interval) / 1000));
    this.timer = window.setInterval(() => {
      if (this.step >= this.total) {
        this.pause();
        return;
      }
      this.goTo(Math.min(this.total, this.step + stride));
      if (this.step >= this.total) this.pause();
    }, interval);
    this.setPlayLabel("Pause", "❚❚");
    this.root.dataset.playing = "1";
  }
  pause() {
    if (this.timer) window.clearInterval(this.timer);
    this.timer = null;
    this.setPlayLabel("Play", "▶");
    this.root.dataset.playing = "0";
  }
  get playing() {
    return this.timer !== null;
  }
  setPlayLabel(name, symbol) {
    if (!this.playBtn) return;
    this.playBtn.textContent = `${symbol} ${name}`;
    this.playBtn.setAttribute("aria-label", name);
  }
  toggle() {
    if (this.timer) this.pause();
    else this.play();
  }
}
