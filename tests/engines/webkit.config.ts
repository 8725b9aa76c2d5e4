import { engineConfig } from "./vitest.shared.ts";

export default engineConfig("webkit");
