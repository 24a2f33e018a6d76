// A class (app/classroom.py): the lecturer's dock on a step-through, lesson or race page, and the student's bar that
// makes the same page follow the lecturer. Which role this tab plays is kept in sessionStorage, so a reload keeps it
// and another tab of the same browser stays on its own. The view itself is the page's business (step/view.js:
// currentViewUrl, showView and the "stepview:change" event); this module only carries view URLs between browsers.
import { fetchJSON, html, onReady, plural } from "./common.js";

const LEAD = "pp_class_lead",
  FOLLOW = "pp_class_follow";
const CONSOLE_MS = 1000;

async function viewApi() {
  try {
    return await import("./step/view.js");
  } catch {
    // a page without the step-through's view: its address is its view
    return { currentViewUrl: () => location.pathname + location.search, showView: (url) => location.assign(url) };
  }
}

function stored(key) {
  try {
    return JSON.parse(sessionStorage.getItem(key) || "null");
  } catch {
    return null;
  }
}

async function post(url, body) {
  return fetchJSON(url, body || {});
}

// ---- choices, tallies, reasons: shared by the dock and the bar ----------------------------------------------------

function questionBlock(q, { onChoose, chosen, tally } = {}) {
  const box = html("div", "class-question");
  box.dataset.kind = q.kind;
  box.appendChild(html("p", "class-prompt", q.prompt));
  const list = html("ol", "class-choices");
  const total = tally ? tally.reduce((a, b) => a + b, 0) : 0;
  q.choices.forEach((choice, i) => {
    const li = html("li", "");
    const right = q.answer !== undefined && i === q.answer;
    if (right) li.classList.add("right");
    if (chosen === i) li.classList.add("chosen");
    if (onChoose && q.answer === undefined) {
      const b = html("button", "class-choice", choice);
      b.type = "button";
      b.setAttribute("aria-pressed", String(chosen === i));
      b.addEventListener("click", () => onChoose(i));
      li.appendChild(b);
    } else {
      li.appendChild(html("span", "class-choice", choice));
    }
    if (tally) {
      const bar = html("span", "class-tally");
      bar.style.setProperty("--share", total ? tally[i] / total : 0);
      bar.textContent = String(tally[i]);
      bar.dataset.count = String(tally[i]);
      li.appendChild(bar);
    }
    if (right) li.appendChild(html("strong", "class-right", " ✓ right answer"));
    if (chosen === i)
      li.appendChild(html("span", "class-mine", right || q.answer === undefined ? " your answer" : " ✗ your answer"));
    list.appendChild(li);
  });
  box.appendChild(list);
  if (q.reason) box.appendChild(html("p", "class-reason", q.reason));
  return box;
}

// A panel fixed over the page folds to its first row (the "folded" class hides the rest), so what it covers shows.
function folding(panel, label) {
  const button = html("button", "class-fold", "−");
  button.type = "button";
  button.setAttribute("aria-label", label);
  const setFolded = (folded) => {
    panel.classList.toggle("folded", folded);
    button.setAttribute("aria-expanded", String(!folded));
    button.textContent = folded ? "+" : "−";
  };
  button.addEventListener("click", () => setFolded(!panel.classList.contains("folded")));
  setFolded(false);
  return { button, setFolded };
}

// ---- the lecturer --------------------------------------------------------------------------------------------------

const KINDS = {
  next: "Which node next?",
  f: "f of a node?",
  frontier: "Which is on the frontier?",
  bound: "IDA*'s next bound?",
  optimal: "Is the path optimal?",
};

class Dock {
  constructor(code, view) {
    this.code = code;
    this.view = view;
    this.sentUrl = null;
    this.el = html("aside", "class-dock");
    this.el.setAttribute("aria-label", `Class ${code}`);
    const head = html("div", "class-dock-head");
    this.codeEl = html("span", "class-code", code);
    this.countEl = html("span", "class-count", "0 following");
    this.countEl.setAttribute("aria-live", "polite");
    this.toggle = html("button", "", "QR");
    this.toggle.type = "button";
    this.toggle.setAttribute("aria-expanded", "false");
    this.toggle.addEventListener("click", () => this.showJoin(this.join.hidden));
    head.append(this.codeEl, this.countEl, this.toggle, folding(this.el, "Fold the class panel").button);
    this.join = html("div", "class-join-box");
    this.join.hidden = true;
    const img = html("img", "class-qr");
    img.src = `/class/${code}/qr.svg`;
    img.alt = `QR code of the class's link`;
    this.link = html("a", "class-link", `${location.origin}/class/${code}`);
    this.link.href = `/class/${code}`;
    this.join.append(img, this.link);
    const ask = html("div", "class-ask");
    this.kind = html("select", "");
    this.kind.setAttribute("aria-label", "Question to ask");
    Object.entries(KINDS).forEach(([k, label]) => {
      const o = html("option", "", label);
      o.value = k;
      this.kind.appendChild(o);
    });
    const askButton = html("button", "primary", "Ask");
    askButton.type = "button";
    askButton.addEventListener("click", () => this.ask());
    this.revealButton = html("button", "", "Show the answer");
    this.revealButton.type = "button";
    this.revealButton.hidden = true;
    this.revealButton.addEventListener("click", () => this.act("reveal"));
    const endButton = html("button", "danger", "End the class");
    endButton.type = "button";
    endButton.addEventListener("click", () => this.end());
    ask.append(this.kind, askButton, this.revealButton, endButton);
    this.error = html("p", "error");
    this.error.setAttribute("role", "alert");
    this.error.hidden = true;
    this.answers = html("div", "class-answers");
    this.answers.setAttribute("aria-live", "polite");
    this.status = html("p", "class-connection");
    this.status.setAttribute("role", "status");
    this.status.hidden = true;
    this.el.append(head, ask, this.status, this.join, this.error, this.answers);
    document.body.appendChild(this.el);
    document.body.classList.add("class-leading");
    // a strip along the foot of the window: the stage and the page give it its height (app.css), so it covers nothing
    this.resized = new ResizeObserver(() =>
      document.documentElement.style.setProperty(
        "--class-dock-height",
        `${Math.ceil(this.el.getBoundingClientRect().height)}px`,
      ),
    );
    this.resized.observe(this.el);
    document.addEventListener("stepview:change", (e) => this.send(e.detail.url));
    this.send(view.currentViewUrl());
    this.poll();
    // the class may start under the editor; what the room watches is the stepper and its searches: bring them up
    // above the strip, now and once the page has drawn what it shows (a search still loading moves them)
    const stepper = document.getElementById("step-stepper");
    if (stepper) {
      stepper.scrollIntoView({ block: "start" });
      document.addEventListener("stepview:change", () => stepper.scrollIntoView({ block: "start" }), { once: true });
    }
  }

  showJoin(open) {
    this.join.hidden = !open;
    this.toggle.setAttribute("aria-expanded", String(open));
  }

  async send(url) {
    if (!url || url === this.sentUrl) return;
    this.sentUrl = url;
    try {
      const answer = await post(`/class/${this.code}/view`, { view: url });
      this.fail(null);
      // the class keeps a step-through view as its saved view's short address: the page writes that from now on
      if (answer.view !== url && answer.view.startsWith("/v/") && this.view.currentViewUrl() === url) {
        this.sentUrl = answer.view;
        this.view.adoptView?.(answer.view);
      }
    } catch (e) {
      this.sentUrl = null; // sent again once the server answers
      this.fail(e);
    }
  }

  fail(e) {
    this.error.hidden = !e;
    this.error.textContent = e ? e.message : "";
  }

  async ask() {
    try {
      const state = await post(`/class/${this.code}/ask`, { kind: this.kind.value });
      this.fail(null);
      this.showJoin(false); // the room has joined by now: the answers need the space
      if (state.view !== this.view.currentViewUrl()) {
        this.sentUrl = state.view;
        this.view.showView(state.view);
      }
      this.render(state);
    } catch (e) {
      this.fail(e);
    }
  }

  async act(what) {
    try {
      this.render(await post(`/class/${this.code}/${what}`));
    } catch (e) {
      this.fail(e);
    }
  }

  async end() {
    try {
      await post(`/class/${this.code}/end`);
    } catch {
      /* ended already */
    }
    this.close();
  }

  close() {
    clearTimeout(this.timer);
    sessionStorage.removeItem(LEAD);
    this.resized.disconnect();
    document.documentElement.style.removeProperty("--class-dock-height");
    this.el.remove();
    document.body.classList.remove("class-leading");
    document.querySelectorAll("[data-class-start]").forEach((f) => {
      f.hidden = false;
    });
  }

  async poll() {
    let answered = false;
    try {
      const response = await fetch(`/class/${this.code}/console`, { cache: "no-store" });
      if (response.status === 404 || response.status === 403) {
        this.close();
        return;
      }
      if (response.ok) {
        answered = true;
        this.render(await response.json());
      }
    } catch {
      /* the next poll tries again */
    }
    this.connection(answered);
    this.timer = setTimeout(() => this.poll(), CONSOLE_MS);
  }

  // The server restarting (an update, a crash) keeps the class: the dock says it is reconnecting, then that it did.
  connection(answered) {
    if (!answered && !this.lost) {
      this.lost = true;
      this.status.hidden = false;
      this.status.textContent = "The server is not answering; reconnecting…";
    } else if (answered && this.lost) {
      this.lost = false;
      this.status.textContent = "Reconnected: the class goes on.";
      this.send(this.view.currentViewUrl()); // a step taken meanwhile
      clearTimeout(this.statusTimer);
      this.statusTimer = setTimeout(() => {
        if (!this.lost) this.status.hidden = true;
      }, 8000);
    }
  }

  render(state) {
    this.countEl.textContent = `${state.following} following`;
    this.countEl.title = `${plural(state.students, "student")} connected, ${state.following} following your view`;
    this.el.dataset.following = String(state.following);
    const q = state.question;
    this.answers.innerHTML = "";
    this.revealButton.hidden = !q || q.revealed;
    if (!q) return;
    const count = html("p", "class-answer-count", `${plural(q.answers, "answer")}`);
    count.dataset.answers = String(q.answers);
    this.answers.append(
      count,
      questionBlock(q.revealed ? q : { ...q, answer: undefined, reason: undefined }, { tally: q.tally }),
    );
    if (q.names.length) this.answers.appendChild(html("p", "muted", `Answered: ${q.names.join(", ")}`));
  }
}

// "Start a class" on the first screen, with the stage: in the folded form's one line when it shows (a presenting
// step-through), else in the player's bar beside Copy link.
function placeStart(form) {
  const setup = document.getElementById("setup-bar"),
    bar = document.querySelector(".stage-bar");
  const place = () => {
    if (setup && !setup.hidden) setup.insertBefore(form, document.getElementById("setup-toggle"));
    else if (bar) bar.insertBefore(form, document.getElementById("step-keys"));
  };
  place();
  if (setup) new MutationObserver(place).observe(setup, { attributes: true, attributeFilter: ["hidden"] });
}

function setUpStart(view) {
  document.querySelectorAll("[data-class-start]").forEach((form) => {
    placeStart(form);
    if (stored(FOLLOW)) {
      form.hidden = true;
      return;
    } // a student's page does not start classes
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        const state = await post(form.action, { view: view.currentViewUrl() });
        sessionStorage.setItem(LEAD, JSON.stringify({ code: state.code }));
        form.hidden = true;
        const dock = new Dock(state.code, view);
        dock.showJoin(true);
      } catch (e) {
        window.alert(e.message);
      }
    });
    if (stored(LEAD)) form.hidden = true;
  });
}

// ---- the student ---------------------------------------------------------------------------------------------------

class Bar {
  constructor(me, view) {
    this.me = me;
    this.view = view;
    this.following = true;
    this.etag = null;
    // the lecturer's view last applied here (at first the address the page opened at, before the page has loaded
    // what it shows): a change to any other view is the student's own
    this.applied = location.pathname + location.search;
    this.state = null;
    this.queued = null;
    this.applying = false;
    this.inFlight = new Set(); // lecturer's views handed to the page whose change it has not announced yet
    this.chosen = new Map();
    this.el = html("aside", "class-bar");
    this.el.setAttribute("aria-label", `Class ${me.code}`);
    const row = html("div", "class-bar-row");
    this.status = html("span", "class-status");
    this.status.setAttribute("aria-live", "polite");
    this.followButton = html("button", "primary", "Follow the lecturer");
    this.followButton.type = "button";
    this.followButton.hidden = true;
    this.followButton.addEventListener("click", () => this.follow());
    const leave = html("button", "", "Leave");
    leave.type = "button";
    leave.addEventListener("click", () => this.leave("You left the class."));
    const fold = folding(this.el, "Fold the class bar");
    this.setFolded = fold.setFolded;
    this.shownQuestion = null;
    row.append(this.status, this.followButton, leave, fold.button);
    this.questionBox = html("div", "class-bar-question");
    const nameLabel = html("label", "inline class-name", "Your name (optional) ");
    this.nameInput = html("input");
    this.nameInput.maxLength = 30;
    this.nameInput.autocomplete = "nickname";
    this.nameInput.value = me.name || "";
    nameLabel.appendChild(this.nameInput);
    this.nameBox = nameLabel;
    this.el.append(row, this.questionBox);
    document.body.appendChild(this.el);
    document.body.classList.add("class-following");
    // the page's bottom padding and scroll padding (app.css) follow the bar's height as it folds, wraps or grows
    new ResizeObserver(() =>
      document.documentElement.style.setProperty(
        "--class-bar-height",
        `${Math.ceil(this.el.getBoundingClientRect().height)}px`,
      ),
    ).observe(this.el);
    const stage = document.getElementById("step-stage");
    if (stage) {
      // the board first: now, and once the page has drawn what it shows
      stage.scrollIntoView({ block: "start" });
      document.addEventListener("stepview:change", () => stage.scrollIntoView({ block: "start" }), { once: true });
    }
    document.addEventListener("stepview:change", (e) => {
      if (!this.following) return;
      // a lecturer's view, however it came (the page's first load counts as its own user's; a view applied before
      // the latest may finish after it): still following
      if (e.detail.url === this.applied || this.inFlight.delete(e.detail.url)) this.view.setFollowing?.(true);
      else this.setFollowing(false);
    });
    this.setFollowing(true);
    this.poll();
  }

  setFollowing(on) {
    this.following = on;
    if (this.view.setFollowing) this.view.setFollowing(on); // the page then leaves a student who stepped alone
    this.followButton.hidden = on;
    this.status.textContent = on
      ? `Class ${this.me.code}: following the lecturer`
      : `Class ${this.me.code}: on your own`;
    this.el.dataset.following = on ? "1" : "0";
  }

  follow() {
    this.setFollowing(true);
    if (this.state) this.apply(this.state.view, true);
  }

  // One view applied at a time: while the page loads one, a newer lecturer's view waits and replaces any older one.
  apply(url, again = false) {
    if (url === this.applied && !again) return;
    this.applied = url;
    this.queued = url;
    if (!this.applying) this.drain();
  }

  async drain() {
    this.applying = true;
    while (this.queued) {
      const url = this.queued;
      this.queued = null;
      if (url !== this.view.currentViewUrl()) {
        this.inFlight.add(url);
        try {
          await this.view.showView(url);
        } catch {
          /* the next poll's view is tried afresh */
        }
        if (this.inFlight.size > 8) this.inFlight.clear(); // views the page never announced
      }
    }
    this.applying = false;
  }

  leave(message) {
    clearTimeout(this.timer);
    sessionStorage.removeItem(FOLLOW);
    this.questionBox.innerHTML = "";
    this.status.textContent = message;
    this.followButton.hidden = true;
    document.body.classList.remove("class-following");
  }

  async poll() {
    const url = `/class/${this.me.code}/state?student=${this.me.student}&following=${this.following ? 1 : 0}`;
    const began = performance.now();
    let wait = this.state ? this.state.poll : 700;
    try {
      const response = await fetch(url, {
        cache: "no-store",
        headers: this.etag ? { "If-None-Match": this.etag } : {},
      });
      if (response.status === 404) {
        this.leave("The class has ended.");
        return;
      }
      if (this.lost) {
        this.lost = false;
        this.setFollowing(this.following);
      }
      if (response.status === 200) {
        this.etag = response.headers.get("ETag");
        this.update(await response.json());
      } else if (response.status === 429) {
        wait = 10000;
      }
    } catch {
      // offline for a moment, or the server restarting: the next poll catches up
      if (!this.lost) {
        this.lost = true;
        this.status.textContent = `Class ${this.me.code}: reconnecting…`;
      }
      wait = Math.max(wait, 2000);
    }
    this.timer = setTimeout(() => this.poll(), Math.max(0, wait - (performance.now() - began)));
  }

  update(state) {
    this.state = state;
    if (this.following) this.apply(state.view);
    this.renderQuestion();
  }

  renderQuestion() {
    const q = this.state && this.state.question;
    this.questionBox.innerHTML = "";
    if (!q) return;
    if (q.number !== this.shownQuestion) {
      // a new question unfolds a folded bar: it wants an answer
      this.shownQuestion = q.number;
      this.setFolded(false);
    }
    const chosen = this.chosen.get(q.number);
    this.questionBox.appendChild(questionBlock(q, { chosen, onChoose: (i) => this.answer(q, i) }));
    if (q.answer === undefined) this.questionBox.appendChild(this.nameBox);
    if (q.answer !== undefined && chosen !== undefined) {
      this.questionBox.appendChild(
        html(
          "p",
          chosen === q.answer ? "class-verdict ok" : "class-verdict",
          chosen === q.answer ? "You were right." : "Not this time: see the reason above.",
        ),
      );
    } else if (chosen !== undefined) {
      this.questionBox.appendChild(
        html("p", "muted class-sent", "Answer sent; you may change it until the answer is shown."),
      );
    }
  }

  async answer(q, choice) {
    try {
      const name = this.nameInput.value.trim();
      this.me.name = name;
      sessionStorage.setItem(FOLLOW, JSON.stringify(this.me));
      await post(`/class/${this.me.code}/answer`, {
        student: this.me.student,
        question: q.number,
        choice,
        ...(name ? { name } : {}),
      });
      this.chosen.set(q.number, choice);
      this.renderQuestion();
    } catch (e) {
      this.status.textContent = e.message;
    }
  }
}

function studentId() {
  const bytes = new Uint8Array(12);
  crypto.getRandomValues(bytes);
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
}

onReady(async () => {
  const join = document.querySelector("[data-class-join]");
  if (join) {
    // the way in: this tab follows the class from now on, starting at the lecturer's view
    sessionStorage.removeItem(LEAD);
    const before = stored(FOLLOW);
    const student = before && before.code === join.dataset.code ? before.student : studentId();
    sessionStorage.setItem(FOLLOW, JSON.stringify({ code: join.dataset.code, student }));
    location.replace(join.dataset.view);
    return;
  }
  const view = await viewApi();
  setUpStart(view);
  const lead = stored(LEAD),
    follow = stored(FOLLOW);
  if (lead) new Dock(lead.code, view);
  else if (follow) new Bar(follow, view);
});
