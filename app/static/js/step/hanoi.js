// The Towers of Hanoi's part of the step-through (engine/domains/hanoi): a state is each disc's peg, smallest disc
// first; a tree node is named by its move ("A→C"); the picture draws the three pegs with their discs, the goal's pegs
// faint beside each, and the disc that just moved outlined. The problem is typed as JSON in the form.
import { styled, svgEl } from "../common.js";
import { genericDomain } from "./generic.js";

const WIDTH = 300,
  HEIGHT = 150,
  BASE = 136,
  PEG_X = [52, 150, 248];

function drawDiscs(svg, scene, pegs, options) {
  const discs = scene.discs,
    height = Math.min(16, 100 / discs);
  pegs.forEach((onPeg, peg) => {
    onPeg.forEach((disc, level) => {
      const width = 24 + (disc + 1) * (70 / discs);
      svg.appendChild(
        styled(
          svgEl("rect", {
            x: PEG_X[peg] - width / 2,
            y: BASE - (level + 1) * height,
            width,
            height: height - 1.5,
            rx: 3,
            class: `hanoi-disc${disc === options.moved ? " moved" : ""}`,
            "data-disc": disc,
          }),
          {
            fill: options.faint ? "none" : "var(--tile-2)",
            stroke: disc === options.moved ? "var(--warn)" : options.faint ? "var(--muted)" : "var(--tile)",
            "stroke-width": disc === options.moved ? "3" : "1",
            "stroke-dasharray": options.faint ? "3 2" : "none",
          },
        ),
      );
    });
  });
}

const stateText = (state) => state.map((peg) => "ABC"[peg]).join("");

// The generic module's words (a node named by its move, a path as its moves) with a picture of its own.
export const hanoi = {
  ...genericDomain("hanoi", "The Towers of Hanoi"),
  solutionText(problem, result) {
    return result.moves || "already at the goal";
  },
  summary() {
    const field = document.querySelector('#step-form [name="data"]');
    return `Towers of Hanoi ${field && field.value ? field.value : ""}`.trim();
  },

  picture(problem, chain, options) {
    const node = chain[chain.length - 1],
      scene = problem.scene;
    const parent = chain.length > 1 ? chain[chain.length - 2].state : null;
    const moved = parent ? node.state.findIndex((peg, disc) => peg !== parent[disc]) : -1;
    const svg = styled(
      svgEl("svg", {
        viewBox: `0 0 ${WIDTH} ${HEIGHT}`,
        class: "hanoi",
        role: "img",
        "aria-label": `the pegs A, B, C; each disc's peg, smallest first: ${stateText(node.state)}`,
      }),
      { display: "block", background: "var(--panel)" },
    );
    if (!(options && options.large)) svg.style.setProperty("width", "14rem"); // enlarged, app.css sizes it
    const wood = { fill: "var(--muted)" };
    // the widest disc reaches 3 units from the picture's sides: the base runs under it
    svg.appendChild(styled(svgEl("rect", { x: 2, y: BASE, width: WIDTH - 4, height: 6, rx: 2 }), wood));
    PEG_X.forEach((x, peg) => {
      svg.appendChild(styled(svgEl("rect", { x: x - 2.5, y: 24, width: 5, height: BASE - 24 }), wood));
      // 19 units of a 300-wide picture drawn 14rem wide: a 14 px letter, readable on a projector
      const name = styled(svgEl("text", { x, y: 19, "text-anchor": "middle" }), {
        fill: "var(--ink)",
        "font-size": "19px",
      });
      name.textContent = "ABC"[peg];
      svg.appendChild(name);
    });
    drawDiscs(svg, scene, scene.goal, { faint: true, moved: -1 });
    drawDiscs(svg, scene, node.picture.pegs, { faint: false, moved });
    svg.dataset.state = node.state.join(",");
    return svg;
  },
};

export default hanoi;
