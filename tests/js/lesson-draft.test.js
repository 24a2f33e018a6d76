// The lesson writer's draft (app/static/js/step/lesson-draft.js): which links it takes, and the JSON it posts is
// what the server reads (app/lessons.py, read_own_lesson: each slide's title, text, a /step? or /v/ link, and a walk
// that is a whole number of steps from 0 to 25, 10 when unsaid).
import assert from "node:assert/strict";
import { test } from "node:test";
import {
  addSlide,
  emptyDraft,
  lessonJson,
  stepLink,
  stepOf,
  swapSlides,
  walkOf,
} from "../../app/static/js/step/lesson-draft.js";

const SITE = "http://127.0.0.1:5000";

test("a slide's link is a step-through address or a saved view's short link of this site", () => {
  assert.equal(stepLink(`${SITE}/step?problem=graph&step=3`, SITE), "/step?problem=graph&step=3");
  assert.equal(stepLink("  /step?problem=tiles  ", SITE), "/step?problem=tiles");
  assert.equal(stepLink(`${SITE}/v/abcdefghij23?step=4`, SITE), "/v/abcdefghij23?step=4");
  for (const refused of [
    "https://elsewhere.example/step?problem=graph",
    `${SITE}/step`,
    `${SITE}/v/ABCDEFGHIJ23`,
    `${SITE}/v/abc`,
    `${SITE}/lessons/`,
    "javascript:alert(1)",
  ]) {
    assert.equal(stepLink(refused, SITE), null, refused);
  }
});

test("a slide added from a link opens at the link's step, and a lesson stops at its most slides", () => {
  const draft = emptyDraft();
  assert.equal(addSlide(draft, `${SITE}/step?problem=graph&step=7`, SITE, 2), null);
  assert.equal(addSlide(draft, "/step?problem=tiles", SITE, 2), null);
  assert.deepEqual(
    draft.slides.map((slide) => [slide.title, slide.step, slide.walk]),
    [
      ["Slide 1", "7", 10],
      ["Slide 2", "0", 10],
    ],
  );
  assert.equal(addSlide(draft, "/step?problem=grid", SITE, 2), "A lesson has at most 2 slides.");
  assert.match(addSlide(draft, "https://elsewhere.example/step?x=1", SITE, 9), /step-through address/);
  assert.equal(draft.slides.length, 2);
  assert.equal(stepOf("/v/abcdefghij23"), "0");
});

test("a walk is a whole number of steps from 0 to 25, as the server takes it", () => {
  assert.deepEqual(["12", "2.5", "30", "-1", "", "many"].map(walkOf), [12, 2, 25, 0, 0, 0]);
});

test("the lesson posted holds each slide's title, words, link and walk, in the order the slides were put in", () => {
  const draft = emptyDraft();
  draft.title = "Search on Romania";
  addSlide(draft, "/step?problem=graph&step=1", SITE, 10);
  addSlide(draft, "/v/abcdefghij23?step=5", SITE, 10);
  draft.slides[0].text = "A* first";
  draft.slides[1].walk = walkOf("3");
  swapSlides(draft, 0, 1);
  assert.deepEqual(JSON.parse(lessonJson(draft)), {
    title: "Search on Romania",
    slides: [
      { title: "Slide 2", text: "", link: "/v/abcdefghij23?step=5", walk: 3 },
      { title: "Slide 1", text: "A* first", link: "/step?problem=graph&step=1", walk: 10 },
    ],
  });
});
