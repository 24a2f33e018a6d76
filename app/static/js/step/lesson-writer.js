// The lesson writer (/lessons/write): a draft lesson in this browser's storage, slides added from the step-through
// (?add=<a /step link>) or pasted, each with its words and its place in the order; "Check and save" posts it as the
// JSON a lesson file holds (app/lessons.py, read_own_lesson). The draft's rules are lesson-draft.js's.
import { addSlide, emptyDraft, lessonJson, stepOf, swapSlides, walkOf } from "./lesson-draft.js";

const KEY = "pp-lesson-draft";
const form = document.getElementById("lesson-writer");
const list = document.getElementById("writer-slides");
const empty = document.getElementById("writer-empty");
const error = document.getElementById("writer-error");
const max = +form.dataset.max;

function stored() {
  try {
    return JSON.parse(localStorage.getItem(KEY)) || null;
  } catch {
    return null;
  }
}
const start = JSON.parse(form.dataset.start);
let draft = start || stored() || emptyDraft();
const save = () => {
  try {
    localStorage.setItem(KEY, JSON.stringify(draft));
  } catch {
    /* private mode: the page keeps it */
  }
};

function add(link) {
  const refused = addSlide(draft, link, window.location.origin, max);
  error.textContent = refused || "";
  error.hidden = !refused;
  if (!refused) save();
  return !refused;
}

function field(label, element) {
  const wrap = document.createElement("label");
  wrap.append(label, element);
  return wrap;
}

function render() {
  form.elements.title.value = draft.title || "";
  list.innerHTML = "";
  empty.hidden = draft.slides.length > 0;
  draft.slides.forEach((slide, i) => {
    const item = document.createElement("li");
    item.className = "writer-slide";
    const heading = document.createElement("h2");
    heading.textContent = `Slide ${i + 1}`;
    const title = Object.assign(document.createElement("input"), { type: "text", value: slide.title, maxLength: 200 });
    title.addEventListener("input", () => {
      slide.title = title.value;
      save();
    });
    const text = Object.assign(document.createElement("textarea"), { rows: 3, value: slide.text, maxLength: 4000 });
    text.addEventListener("input", () => {
      slide.text = text.value;
      save();
    });
    const walk = Object.assign(document.createElement("input"), {
      type: "number",
      min: 0,
      max: 25,
      value: slide.walk ?? 10,
    });
    walk.addEventListener("input", () => {
      slide.walk = walkOf(walk.value);
      save();
    });
    const open = Object.assign(document.createElement("a"), {
      href: slide.link,
      textContent: `its view (step ${stepOf(slide.link)})`,
    });
    const tools = document.createElement("div");
    tools.className = "inline-form";
    const button = (label, act, disabled) => {
      const b = Object.assign(document.createElement("button"), { type: "button", textContent: label, disabled });
      b.setAttribute("aria-label", `${label}: slide ${i + 1}`);
      b.addEventListener("click", () => {
        act();
        save();
        render();
      });
      return b;
    };
    const swap = (j) => swapSlides(draft, i, j);
    tools.append(
      button("Move up", () => swap(i - 1), i === 0),
      button("Move down", () => swap(i + 1), i === draft.slides.length - 1),
      button("Remove", () => draft.slides.splice(i, 1), false),
      open,
    );
    item.append(
      heading,
      field("Title ", title),
      field("Your words ", text),
      field("Steps the clicker walks before the next slide ", walk),
      tools,
    );
    list.append(item);
  });
}

const params = new URLSearchParams(window.location.search);
if (params.has("add")) {
  add(params.get("add"));
  history.replaceState(null, "", window.location.pathname);
} else if (start) {
  save();
  history.replaceState(null, "", window.location.pathname);
}
render();

form.elements.title.addEventListener("input", () => {
  draft.title = form.elements.title.value;
  save();
});
document.getElementById("writer-add").addEventListener("click", () => {
  const input = document.getElementById("writer-link");
  if (add(input.value)) {
    input.value = "";
    render();
  }
});
document.getElementById("writer-clear").addEventListener("click", () => {
  draft = emptyDraft();
  save();
  render();
});
form.addEventListener("submit", (event) => {
  if (!draft.slides.length) {
    event.preventDefault();
    error.textContent = "Add a slide first.";
    error.hidden = false;
    return;
  }
  form.elements.lesson.value = lessonJson(draft);
});
