import { coreScenario } from "./support/scenario.ts";
import { webkitEngine } from "./support/webkit.ts";

coreScenario(webkitEngine(), "webkit");
