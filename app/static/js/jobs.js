// Job progress for screen readers. A running job's fragment is replaced every second (htmx outerHTML), and a live
// region that is replaced is not reliably announced, so one persistent live region (#announcer in base.html) says
// what changed: a job started, each further quarter of its progress, and how it ended. Loaded by every page,
// because jobs are started from most of them.
import { announce, onReady } from "./common.js";

const heard = new Map(); // job id → what was last announced about it

function check() {
  const present = new Set();
  document.querySelectorAll(".job[data-job]").forEach((job) => {
    present.add(job.dataset.job);
    const id = job.dataset.job;
    const title = (job.getAttribute("aria-label") || "Job").trim();
    let said;
    if (job.classList.contains("finished")) {
      const status = job.querySelector(".job-status");
      said = `${title}: ${status ? status.textContent.trim() : "finished"}`;
    } else {
      const bar = job.querySelector("progress");
      const quarter = bar && bar.hasAttribute("value") ? Math.floor(+bar.value * 4) : -1;
      said = quarter > 0 ? `${title}: ${quarter * 25} % done` : `${title}: started`;
    }
    if (heard.get(id) !== said) {
      heard.set(id, said);
      announce(said);
    }
  });
  // a job that finished with a result was replaced by the result itself
  heard.forEach((said, id) => {
    if (present.has(id)) return;
    heard.delete(id);
    announce(`${said.split(":")[0]}: finished, the result is shown`);
  });
}

// A job reattached after a reload goes back to its page's own place: the target of the form that starts its kind
// (data-job-kind on the form), with the form filled in as the job was sent. The form's hidden fields name the page's
// position, so a job for another position (or a value the form cannot take) stays in "Your running jobs".
function fill(form, values) {
  const changes = [];
  for (const [name, value] of Object.entries(values)) {
    const field = form.elements.namedItem(name);
    if (!field || value === null || (typeof value === "object" && !Array.isArray(value))) continue;
    const fields = field instanceof RadioNodeList ? [...field] : [field];
    if (fields[0].type === "hidden") {
      if (fields[0].value !== String(value)) return false;
    } else if (fields[0].type === "checkbox") {
      const wanted = Array.isArray(value) ? value.map(String) : [String(value)];
      const on = (box) => (typeof value === "boolean" ? value : wanted.includes(box.value));
      fields.forEach((box) =>
        changes.push(() => {
          box.checked = on(box);
        }),
      );
    } else if (fields[0].tagName === "SELECT") {
      const option = [...fields[0].options].find(
        (o) => o.value === String(value) || (o.value !== "" && Number(o.value) === Number(value)),
      );
      if (!option) return false;
      changes.push(() => {
        fields[0].value = option.value;
      });
    } else if (!Array.isArray(value)) {
      changes.push(() => {
        fields[0].value = String(value);
      });
    }
  }
  changes.forEach((change) => change());
  form.dispatchEvent(new Event("change", { bubbles: true })); // pages that show fields by choice update
  return true;
}

function reattach() {
  const panel = document.querySelector("#my-jobs .my-jobs");
  if (!panel) return;
  // a job this page started while the list was on its way is in its place already: one copy, one poll
  panel.querySelectorAll(".job[data-job]").forEach((job) => {
    const copies = document.querySelectorAll(`[data-job="${CSS.escape(job.dataset.job)}"]`);
    if ([...copies].some((copy) => !panel.contains(copy))) job.remove();
  });
  panel.querySelectorAll(".job[data-kind]").forEach((job) => {
    const form = document.querySelector(`form[data-job-kind~="${job.dataset.kind}"]`);
    const target = form && document.querySelector(form.getAttribute("hx-target"));
    if (!target || target.querySelector(".job") || !fill(form, JSON.parse(job.dataset.form || "{}"))) return;
    target.replaceChildren(job);
  });
  if (!panel.querySelector(".job")) panel.remove();
}

onReady(() => {
  check();
  document.addEventListener("htmx:afterSettle", (event) => {
    if (event.target.id === "my-jobs") reattach();
    check();
  });
});
