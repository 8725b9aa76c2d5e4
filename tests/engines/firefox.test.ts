import { firefoxEngine } from "./support/firefox.ts";
import { coreScenario } from "./support/scenario.ts";
import { visitorScenario } from "./support/visitor.ts";

coreScenario(firefoxEngine(), "firefox");
visitorScenario(firefoxEngine(), "firefox");
