// Job progress for screen readers. A running job's fragment is replaced every second (htmx outerHTML), and a live
// region that is replaced is not reliably announced, so one persistent live region (#announcer in base.html) says
// what changed: a job started, each further quarter of its progress, and how it ended. Loaded by every page,
// because jobs are started from most of them.
import { onReady } from "./common.js";

const heard = new Map();  // job id → what was last announced about it

function announce(text) {
  const region = document.getElementById("announcer");
  if (region && text) region.textContent = text;
}

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
    if (heard.get(id) !== said) { heard.set(id, said); announce(said); }
  });
  // a job that finished with a result was replaced by the result itself
  heard.forEach((said, id) => {
    if (present.has(id)) return;
    heard.delete(id);
    announce(`${said.split(":")[0]}: finished, the result is shown`);
  });
}

onReady(() => {
  check();
  document.addEventListener("htmx:afterSettle", check);
});
