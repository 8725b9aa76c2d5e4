/**
 * Lets plain `node` load the project's `.tsx` modules (the studio's pages, the examiner's index.html):
 * Node strips TypeScript's types by itself but refuses JSX, which needs a transform. Each entry that
 * reaches a page imports this first and its components after, by a dynamic import (`studio/start.ts`,
 * `lib/records/export.ts`), so no command line needs a flag; esbuild, a production dependency already
 * (the studio's preview), turns the JSX into calls of React's automatic runtime, as `tsconfig.json`
 * (`jsx: react-jsx`) and Vitest do.
 */
import { readFileSync } from "node:fs";
import { registerHooks } from "node:module";
import { fileURLToPath } from "node:url";
import { transformSync } from "esbuild";

registerHooks({
  load(url, context, nextLoad) {
    if (!url.startsWith("file:") || !url.split(/[?#]/)[0]!.endsWith(".tsx")) return nextLoad(url, context);
    const file = fileURLToPath(url);
    // An inline source map keeps a stack trace's lines those of the .tsx file.
    const { code } = transformSync(readFileSync(file, "utf8"), {
      loader: "tsx",
      jsx: "automatic",
      format: "esm",
      sourcefile: file,
      sourcemap: "inline",
    });
    return { format: "module", source: code, shortCircuit: true };
  },
});
