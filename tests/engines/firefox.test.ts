import { firefoxEngine } from "./support/firefox.ts";
import { coreScenario } from "./support/scenario.ts";

coreScenario(firefoxEngine(), "firefox");
