// The step-through's "graph-data" view (the registered graph kind: a graph typed as data) is drawn by graph.js, beside
// the numbered graph it shares its drawing with.
export { typedGraph as default } from "./graph.js";
