// The lesson writer's draft without the page (lesson-writer.js draws it): its slides, each a step-through link with
// its words, in their order, and the JSON a lesson file holds (app/lessons.py, read_own_lesson).

export const emptyDraft = () => ({ title: "", slides: [] });

// A slide's link as the draft keeps it (path and query), or null: a step-through address of this site, or a saved
// view's short link (/v/<id>?step=N, which the server resolves).
export function stepLink(text, origin) {
  try {
    const url = new URL(text.trim(), origin);
    const ok = url.pathname === "/step" ? Boolean(url.search) : /^\/v\/[a-z2-7]{12}$/.test(url.pathname);
    return url.origin === origin && ok ? url.pathname + url.search : null;
  } catch {
    return null;
  }
}

// The step a link opens at ("0" when it names none).
export const stepOf = (link) => new URLSearchParams(link.split("?")[1]).get("step") || "0";

// Adds a slide for a link; returns null, or the sentence that says why it was refused.
export function addSlide(draft, text, origin, max) {
  const link = stepLink(text, origin);
  if (!link) return "A slide's link is a step-through address (/step?… or /v/…), as its Copy link gives.";
  if (draft.slides.length >= max) return `A lesson has at most ${max} slides.`;
  draft.slides.push({ title: `Slide ${draft.slides.length + 1}`, text: "", link, walk: 10, step: stepOf(link) });
  return null;
}

// The steps a clicker walks before the next slide, as the server takes them: a whole number from 0 to 25.
export const walkOf = (value) => Math.max(0, Math.min(25, Math.trunc(+value) || 0));

export function swapSlides(draft, i, j) {
  [draft.slides[i], draft.slides[j]] = [draft.slides[j], draft.slides[i]];
}

// The lesson as its file's JSON: the title and each slide's title, words, link and walk.
export function lessonJson(draft) {
  const slides = draft.slides.map(({ title, text, link, walk }) => ({ title, text, link, walk }));
  return JSON.stringify({ title: draft.title, slides });
}
