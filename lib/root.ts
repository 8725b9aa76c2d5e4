import { join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The project's folder, as a path (fileURLToPath: right on Windows and in folders with spaces, where
 * `new URL(…).pathname` is not). Every tool resolves project files from here.
 */
export const projectRoot = fileURLToPath(new URL("../", import.meta.url));

/** A path inside the project. */
export const fromRoot = (...parts: string[]) => join(projectRoot, ...parts);
