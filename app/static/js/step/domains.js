// The step-through's domains by the problem kind /api/step answers with: each draws its own states and names its
// own moves, so the shared modules never ask which kind of problem they show.
import { graph } from "./graph.js";
import { tiles } from "./tiles.js";

export const DOMAINS = { tiles, graph };
