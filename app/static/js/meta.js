// The Swarm & GA page: show only the chosen algorithm's parameters (the other's are kept, just out of the way).
import { onReady } from "./common.js";

onReady(() => {
  const form = document.querySelector(".meta-form");
  if (!form) return;
  const select = form.elements.algorithm;
  const show = () =>
    form.querySelectorAll("fieldset[data-for]").forEach((f) => {
      f.hidden = f.dataset.for !== select.value;
    });
  select.addEventListener("change", show);
  show();
});
