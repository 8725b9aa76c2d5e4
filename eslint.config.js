import js from "@eslint/js";
import { defineConfig } from "eslint/config";
import astro from "eslint-plugin-astro";
import importX from "eslint-plugin-import-x";
import reactHooks from "eslint-plugin-react-hooks";
import { builtinModules } from "node:module";
import globals from "globals";
import tseslint from "typescript-eslint";

/** Node's modules, by either name: code that reaches a visitor's browser may import none of them. */
const NODE_MODULES = {
  patterns: [{ group: ["node:*"], message: "Runs in the browser: no Node modules here (see this folder's README)." }],
  paths: builtinModules.map((name) => ({ name, message: "Runs in the browser: no Node modules here (see this folder's README)." })),
};
const NODE_GLOBALS = ["process", "Buffer", "__dirname", "__filename", "require", "module", "global", "setImmediate"];
/**
 * The browser's own globals: those neither plain JavaScript nor Node has, and the page's state that newer
 * Node versions imitate (Node 22+ has its own navigator and localStorage).
 */
const DOM_GLOBALS = [
  ...new Set([
    ...Object.keys(globals.browser).filter((name) => !(name in globals.es2025) && !(name in globals.node)),
    ...["window", "self", "document", "navigator", "location", "history", "localStorage", "sessionStorage"],
  ]),
];

export default defineConfig(
  {
    ignores: [
      "dist/",
      "dist-*/",
      ".astro/",
      ".tools/",
      "node_modules/",
      "test-results/",
      "playwright-report/",
      "bench/results/",
      ".studio/",
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...astro.configs.recommended,
  {
    files: ["**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: {
      ...reactHooks.configs.recommended.rules,
      // Unused names prefixed with _ are deliberate (e.g. a destructured field left out on purpose).
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
    },
  },
  {
    files: ["**/*.{js,mjs,ts,tsx}"],
    languageOptions: { globals: { ...globals.browser, ...globals.node } },
  },
  {
    // Fixtures deliberately break schemas through loosely typed data.
    files: ["tests/**/*.{ts,tsx}"],
    rules: { "@typescript-eslint/no-explicit-any": "off" },
  },
  {
    // Where code runs is a folder (src/client/README.md, src/shared/README.md): the browser's code and
    // what it shares with the build may not reach for Node. Components render at build time and in the
    // browser (islands), so they follow the same rule. So does the content studio's admin module, which
    // runs in the editor's browser (studio/admin/).
    files: ["src/client/**", "src/shared/**", "src/components/**", "studio/admin/**"],
    rules: {
      "no-restricted-imports": ["error", NODE_MODULES],
      "no-restricted-globals": ["error", ...NODE_GLOBALS.map((name) => ({ name, message: "Runs in the browser: no Node globals." }))],
    },
  },
  {
    // Every build imports the content configuration through a Vite server of its own; through the virtual
    // `astro:content` it transformed Astro's whole content runtime each time (decision 0063).
    files: ["src/content.config.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "astro:content",
              message:
                "Import defineCollection from astro/content/config: the virtual module costs every build about half a second (decision 0063).",
            },
          ],
        },
      ],
    },
  },
  {
    // The runtimes (the server, the studio) and what every tool imports (lib/) may not reach into the
    // command-line tools or the tests: what they share lives in lib/ (lib/README.md). Their HTML is
    // made one way, React components rendered to static markup (decision 0051): hono's templates stay out.
    files: ["server/**", "studio/**", "lib/**"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          paths: [
            {
              name: "hono/html",
              message: "HTML is made from React components (studio/pages/render.ts, decision 0051), not hono's templates.",
            },
          ],
          patterns: [
            {
              group: ["**/scripts/**"],
              message: "Runtime code may not import scripts/ (command-line tools): move what is shared to lib/.",
            },
            { group: ["**/tests/**"], message: "Runtime code may not import tests/: move what is shared to lib/." },
          ],
        },
      ],
    },
  },
  {
    // What production runs (the server, the studio, the records' capture and verification in lib/, the
    // build's integrations) is installed with `npm ci --omit=dev`, which leaves devDependencies out: an
    // import of one passes every test here and fails on the firm's host. eslint-plugin-import-x reads
    // package.json and refuses it; move the package to dependencies (docs/decisions/0032).
    files: ["server/**", "studio/**", "lib/**", "integrations/**"],
    plugins: { "import-x": importX },
    rules: {
      "import-x/no-extraneous-dependencies": ["error", { devDependencies: false, packageDir: import.meta.dirname }],
    },
  },
  {
    // The floors (lib/README.md): lib/ at the bottom, then integrations/ (Astro's hooks), then the runtimes
    // (server/, studio/), then the command-line tools (scripts/), then what only measures or tests them
    // (bench/, testing/, tests/). An import may go down or sideways, never up; and no product code imports
    // what exists for tests, demos and benches (testing/, tests/). And no module imports itself round a cycle.
    files: ["**/*.{ts,tsx,mjs}"],
    ignores: ["node_modules/**", "dist*/**", ".studio/**", ".astro/**"],
    plugins: { "import-x": importX },
    // import-x reads each imported module to follow the graph: TypeScript through typescript-eslint's parser.
    settings: { "import-x/parsers": { "@typescript-eslint/parser": [".ts", ".tsx", ".mts"] } },
    rules: {
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: [
            {
              target: "./lib",
              from: ["./integrations", "./server", "./studio", "./scripts", "./bench", "./testing", "./tests"],
              message: "lib/ is the ground floor: it imports nothing above it. Move what both need into lib/.",
            },
            {
              target: "./integrations",
              from: ["./server", "./studio", "./scripts", "./bench", "./testing", "./tests"],
              message: "integrations/ are the build's hooks: they call lib/ and src/, nothing above them.",
            },
            {
              target: ["./server", "./studio"],
              from: ["./scripts", "./bench", "./testing", "./tests"],
              message: "The runtimes import lib/ (and each other's public modules), never the tools, benches or tests above them.",
            },
            {
              target: ["./src", "./scripts"],
              from: ["./bench", "./testing", "./tests"],
              message: "Product code never imports what exists only for tests, demos and benches (testing/, tests/) or the benches.",
            },
            {
              target: ["./bench", "./testing"],
              from: ["./tests"],
              message: "Benches and demos share helpers through testing/, never tests/.",
            },
          ],
        },
      ],
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
    },
  },
  {
    // Shared code runs anywhere: in the browser, at build time and in Node tools. It may touch neither.
    files: ["src/shared/**"],
    rules: {
      "no-restricted-globals": [
        "error",
        ...[...NODE_GLOBALS, ...DOM_GLOBALS].map((name) => ({ name, message: "src/shared runs anywhere: no DOM and no Node here." })),
      ],
    },
  },
);
