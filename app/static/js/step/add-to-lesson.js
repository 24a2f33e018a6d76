// "Add to lesson" on the step-through: the view on screen (its address names it, at its step) becomes a slide of the
// lesson being written (/lessons/write keeps the draft).
const link = document.getElementById("add-to-lesson");
if (link) {
  link.addEventListener("click", (event) => {
    event.preventDefault();
    window.location.href = `${link.getAttribute("href")}?add=${encodeURIComponent(window.location.pathname + window.location.search)}`;
  });
}
