import { coreScenario } from "./support/scenario.ts";
import { visitorScenario } from "./support/visitor.ts";
import { webkitEngine } from "./support/webkit.ts";

coreScenario(webkitEngine(), "webkit");
visitorScenario(webkitEngine(), "webkit");
