// The step-through page and the lesson slides: the player, one panel per algorithm, the form that chooses the
// problem (on /step) and the keys of a clicker. The address always holds the view (view.js, app/step.py's query):
// on /step the form's fields are that query, on a slide it is the slide plus ?step=N. A page showing a saved view
// (app/links.py: opened at /v/<id>, or given one by a class) writes the short form /v/<id>?step=N while it shows that
// view, the long query again once its user changes the problem.
import { Stepper } from "../stepper.js";
import { announce, copyLink, fetchJSON, onReady, showError } from "../common.js";
import { blurAfterChoosing, keyAction } from "./clicker.js";
import { genericDomain } from "./generic.js";
import { SearchPanel } from "./panel.js";
import { registerView, viewChanged } from "./view.js";

const recordUrl = (id, step, showH) => `/v/${id}?${showH ? "show_h=1&" : ""}step=${step}`;
// a view's query without what changes as it is shown (the step, h on the board): what a saved view's record fixes
function baseOf(params) {
  const base = new URLSearchParams(params);
  base.delete("step");
  base.delete("show_h");
  return base.toString();
}

// Each view's domain module (generic.js describes the interface): app/static/js/step/<view>.js when the server found
// one (the stage's data-domains: view -> {module, title, compare}), else the generic picture of any state's JSON.
async function loadDomains(known) {
  const domains = {};
  await Promise.all(
    Object.entries(known).map(async ([view, about]) => {
      domains[view] = about.module ? (await import(about.module)).default : genericDomain(view, about.title);
    }),
  );
  return domains;
}

function searchView(root) {
  const stepper = new Stepper(root);
  const stage = document.getElementById("step-stage");
  const form = document.getElementById("step-form");
  const panels = document.getElementById("step-panels");
  const error = document.getElementById("step-error");
  const config = root.dataset.config ? JSON.parse(root.dataset.config) : {};
  const lesson = config.request ? config : null;
  const options = { showH: Boolean(config.show_h), onOption: setOption };
  const known = JSON.parse(root.dataset.domains || "{}");
  let DOMAINS = {};
  let formHooks = [];
  const domainsReady = loadDomains(known).then((loaded) => {
    DOMAINS = loaded;
    if (form) formHooks = Object.values(DOMAINS).map((d) => (d.bindForm ? d.bindForm(form, (how) => load(how)) : {}));
  });
  let views = [];
  let canonical = null; // the loaded view's query from the server (a scramble written as its tiles)
  // the saved view this page shows: its id and the base of its query (filled in once its searches are loaded)
  let record = config.record ? { id: config.record.id, base: null } : null;
  const stepPath = form ? form.getAttribute("action") : window.location.pathname;
  let byUser = true; // whether the change being shown came from this page's user (not from showView)

  // The display options of the stage bar: "show h" (in the view's URL) and "large text" (this screen's own).
  const showH = document.getElementById("show-h");
  showH.checked = options.showH;
  stage.classList.toggle("showing-h", options.showH);
  showH.addEventListener("change", () => setOption("showH", showH.checked));
  const large = document.getElementById("large-text");
  large.checked = window.localStorage.getItem("puzzle-playground-large-text") === "1";
  const sizeText = () => {
    stage.classList.toggle("large-text", large.checked);
    views.forEach((v) => v.scheduleTree());
  };
  large.addEventListener("change", () => {
    window.localStorage.setItem("puzzle-playground-large-text", large.checked ? "1" : "0");
    sizeText();
  });
  sizeText();

  function setOption(name, value) {
    options[name] = value;
    showH.checked = options.showH;
    stage.classList.toggle("showing-h", options.showH);
    views.forEach((v) => v.render());
    changed();
  }

  // The view's query as the form states it: its enabled fields, the algorithms as one list.
  function formQuery() {
    const params = new URLSearchParams();
    new FormData(form).forEach((value, name) => {
      if (String(value).trim() !== "") params.set(name, String(value).trim());
    });
    params.set("algorithms", [params.get("first"), params.get("second")].filter(Boolean).join(","));
    params.delete("first");
    params.delete("second");
    return params;
  }

  function viewUrl() {
    if (lesson) {
      const params = new URLSearchParams({ step: String(stepper.step) });
      if (options.showH) params.set("show_h", "1");
      return `${window.location.pathname}?${params}`;
    }
    if (record && canonical && record.base === baseOf(canonical))
      return recordUrl(record.id, stepper.step, options.showH);
    return longUrl();
  }

  // The view's whole query on /step (what a saved view is made from).
  function longUrl() {
    const params = new URLSearchParams(canonical || formQuery());
    params.delete("show_h");
    params.delete("step");
    if (options.showH) params.set("show_h", "1");
    params.set("step", String(stepper.step));
    return `${stepPath}?${params.toString().replace(/%2C/g, ",").replace(/%3A/g, ":")}`;
  }

  function changed() {
    if (root.dataset.ready === "1") viewChanged(byUser);
  }

  const showControls = () => {
    const kind = form.elements.problem.value;
    form.querySelectorAll("[data-for]").forEach((el) => {
      el.hidden = el.dataset.for !== kind;
      el.disabled = el.hidden;
    });
  };

  // One line saying what is loaded, shown while the form is folded away.
  function summary() {
    const f = form.elements;
    const chosen = (select) => select.options[select.selectedIndex].text;
    const domain = DOMAINS[f.problem.value];
    return `${domain ? domain.summary(f) : f.problem.value} · ${chosen(f.first)}${f.second.value ? ` beside ${chosen(f.second)}` : ""}`;
  }

  function fold(folded) {
    if (!form) return;
    form.hidden = folded;
    document.getElementById("setup-bar").hidden = !folded;
    document.getElementById("setup-toggle").setAttribute("aria-expanded", String(!folded));
    if (folded) document.getElementById("setup-summary").textContent = summary();
    stage.classList.toggle("presenting", folded);
  }

  // Bring the whole stage on screen when it does not fit below what is above it (the page header, the intro).
  function frame(always) {
    if (!window.matchMedia("(min-width: 700px)").matches) return; // a phone scrolls the page as usual
    const box = stage.getBoundingClientRect();
    if (always || box.bottom > window.innerHeight + 1 || box.top < 0)
      window.scrollTo({ top: window.scrollY + box.top, behavior: "instant" });
  }

  function announceStep(step) {
    if (!views.length || (stepper.playing && step < stepper.total)) return; // playing: only where it stops
    announce(
      `Step ${step} of ${stepper.total}. ` +
        views.map((v) => (views.length > 1 ? `${v.trace.title}: ` : "") + v.caption.textContent).join(" "),
    );
  }

  let latest = 0;
  let edited = false; // the form was changed since the page opened at its view (or since the last Load)
  let opened = 0; // a slide's opening step
  // Load the searches the form (or the slide) names; at: the step to show, atEnd: show the end (a rearranged graph).
  async function load({ present = false, at = null, atEnd = false } = {}) {
    const mine = ++latest; // a newer request (the form changed again) wins over an older answer still on its way
    root.dataset.ready = "0";
    await domainsReady;
    let data;
    try {
      data = lesson
        ? await fetchJSON(root.dataset.url, { ...lesson.request, open_at: lesson.step })
        : await fetchJSON(`${root.dataset.url}?${formQuery()}`);
      showError(error, null);
    } catch (e) {
      showError(error, e);
      fold(false);
      return;
    }
    if (mine !== latest) return;
    canonical = data.view ? new URLSearchParams(data.view) : null;
    if (record && record.base === null && canonical) record.base = baseOf(canonical);
    panels.innerHTML = "";
    if (present) fold(true);
    const domain = DOMAINS[data.problem] || genericDomain(data.problem, data.problem);
    const problem = domain.problem(data);
    showH.closest("label").hidden = !domain.optionsLabel;
    showH.closest("label").title = domain.optionsTitle || "";
    views = data.traces.map((trace) => new SearchPanel(panels, trace, problem, domain, options));
    panels.classList.toggle("two", views.length === 2);
    stepper.load(Math.max(...data.traces.map((t) => t.steps.length)), (k) => views.forEach((v) => v.goTo(k)));
    formHooks.forEach((hook) => hook.loaded && hook.loaded(data, atEnd));
    if (lesson) {
      const named = document.getElementById("slide-step");
      if (named) named.textContent = `step ${data.open_step} of ${stepper.total}`;
      opened = data.open_step;
    }
    stepper.goTo(at !== null ? at : atEnd ? stepper.total : lesson ? data.open_step : 0);
    root.dataset.ready = "1";
    changed();
    if (present || lesson) frame(present);
    if (present) focusPlayer();
  }

  function focusPlayer() {
    if (document.activeElement && !document.activeElement.offsetParent)
      root.querySelector('[data-act="forward"]').focus();
  }

  // Another script shows a view: the same slide or /step moves to its step (and its options) without a reload.
  registerView({
    url: viewUrl,
    accepts: (url) =>
      lesson
        ? url.pathname === window.location.pathname
        : Boolean(form) && (url.pathname === stepPath || url.pathname.startsWith("/v/")),
    async apply(url) {
      byUser = false;
      try {
        if (url.pathname.startsWith("/v/")) {
          await applySaved(url);
          return;
        }
        const params = url.searchParams;
        const step = +(params.get("step") || 0);
        if (options.showH !== (params.get("show_h") === "1")) setOption("showH", params.get("show_h") === "1");
        const query = new URLSearchParams(params);
        query.delete("step");
        query.delete("show_h");
        const current = canonical ? new URLSearchParams(canonical) : null;
        if (lesson || (current && query.toString() === current.toString())) {
          stepper.goTo(step);
          return;
        }
        fillForm(query);
        await load({ at: step });
      } finally {
        byUser = true;
      }
    },
    // a class saved this page's view: from now on the address is its short form
    adopt(url) {
      const id = new URL(url, window.location.href).pathname.slice(3);
      if (lesson || !canonical || !/^[a-z2-7]{12}$/.test(id)) return;
      record = { id, base: baseOf(canonical) };
      changed();
    },
  });

  // A saved view: the one shown moves to the address's step; another is fetched and loaded (no reload either way).
  async function applySaved(url) {
    const id = url.pathname.slice(3);
    const params = url.searchParams;
    if (!(record && record.id === id && canonical && record.base === baseOf(canonical))) {
      const saved = await fetchJSON(`/api/views/${encodeURIComponent(id)}`);
      const target = new URL(saved.url, window.location.href);
      if (saved.page !== "step" || target.pathname !== stepPath) {
        window.location.assign(url.href);
        return;
      }
      const query = target.searchParams;
      const at = params.has("step") ? params : query; // the address's step and h, else the saved ones
      record = { id, base: null };
      if (options.showH !== (at.get("show_h") === "1")) setOption("showH", at.get("show_h") === "1");
      fillForm(new URLSearchParams(baseOf(query)));
      await load({ at: +(at.get("step") || 0) });
      return;
    }
    if (options.showH !== (params.get("show_h") === "1")) setOption("showH", params.get("show_h") === "1");
    stepper.goTo(+(params.get("step") || 0));
  }

  // Put a view's query into the form: the problem first (it decides which fields are in use), then every field.
  function fillForm(query) {
    const f = form.elements;
    f.problem.value = query.get("problem") || f.problem.dataset.default; // none named: the default kind's view
    showControls();
    const [first, second] = (query.get("algorithms") || "").split(",");
    [...f].forEach((el) => {
      if (!el.name || el.disabled || el.name === "problem") return;
      if (el.name === "first" || el.name === "second") {
        const value = (el.name === "first" ? first : second) || "";
        if (![...el.options].some((o) => o.value === value)) el.add(new Option(value, value));
        el.value = value;
      } else if (query.has(el.name)) el.value = query.get(el.name);
      else if (el.type !== "number" && el.tagName !== "SELECT") el.value = "";
    });
  }

  stepper.listeners.push(announceStep);
  stepper.listeners.push(() => changed());
  document.addEventListener("keydown", (event) => {
    const act = keyAction(event);
    if (!act || root.dataset.ready !== "1") return;
    event.preventDefault();
    // a slide is about its opening step and the few after it (its walk): past them the clicker turns the slide
    if (lesson && act === "forward" && stepper.step >= Math.min(stepper.total, opened + lesson.walk)) {
      const next = document.querySelector('a[rel="next"]');
      if (next) window.location.href = next.href;
    } else if (lesson && act === "back" && stepper.step <= Math.min(opened, stepper.total)) {
      const prev = document.querySelector('a[rel="prev"]');
      if (prev) window.location.href = prev.href;
    } else {
      stepper[act]();
    }
  });
  blurAfterChoosing(document);

  if (form) {
    showControls();
    form.addEventListener("change", (event) => {
      // every change shows at once; Load also folds the form away
      if (event.target === form.elements.problem) showControls();
      if (event.target.name) load();
    });
    ["input", "change"].forEach((kind) =>
      form.addEventListener(kind, () => {
        edited = true;
      }),
    );
    // Load: presenting; the view the page opened at (a link to a step) stays at its step, a changed one starts afresh
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      if (root.dataset.ready === "1" && !edited) {
        fold(true);
        frame(true);
        focusPlayer();
      } else {
        edited = false;
        load({ present: true });
      }
    });
    document.getElementById("setup-toggle").addEventListener("click", () => {
      fold(false);
      form.elements.problem.focus();
    });
  }
  const copy = document.getElementById("copy-link");
  if (copy) {
    copy.addEventListener("click", async () => {
      let url = new URL(viewUrl(), window.location.href).href;
      const status = document.getElementById("copy-status");
      if (!lesson) {
        // the view saved on the server: a short link that opens it presenting, at this step
        try {
          url = new URL((await fetchJSON("/api/views", { view: longUrl() })).link, window.location.href).href;
        } catch (e) {
          status.textContent = `${e.message} The long link: ${url}`;
          return;
        }
      }
      copy.dataset.link = url;
      await copyLink(url, status);
    });
  }
  const compare = document.getElementById("compare-solvers");
  if (compare) {
    // solvers side by side on this very problem, for every registered kind (not the numbered graph)
    const base = compare.getAttribute("href").split("?")[0];
    document.addEventListener("stepview:change", (event) => {
      const query = new URL(form ? longUrl() : event.detail.url, window.location.href).searchParams;
      compare.hidden = !(known[query.get("problem")] || {}).compare;
      compare.href = `${base}?${query}`;
    });
  }
  load({ at: lesson ? (config.at ?? null) : (config.step ?? null), present: Boolean(config.present) });
}

onReady(() => document.querySelectorAll('.stepper[data-kind="search"]').forEach(searchView));
