/**
 * `astro build` and `astro sync` pre-bundle no dependency; `astro dev` does (src/build/no-prebundling.ts,
 * decision 0064). The integration's hook is called as Astro calls it, and the Vite plugin it adds is
 * resolved by Vite itself, with a dependency listed to pre-bundle as @astrojs/react lists React.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { resolveConfig, type PluginOption } from "vite";
import { afterAll, describe, expect, it } from "vitest";
import { noPrebundling } from "../../src/build/no-prebundling.ts";

type Command = "dev" | "build" | "preview" | "sync";
/** The Vite plugins the integration adds for an Astro command. */
function pluginsFor(command: Command): PluginOption[] {
  const added: PluginOption[] = [];
  const setup = noPrebundling().hooks["astro:config:setup"] as (options: unknown) => void;
  setup({ command, updateConfig: (config: { vite?: { plugins?: PluginOption[] } }) => added.push(...(config.vite?.plugins ?? [])) });
  return added;
}

const root = mkdtempSync(join(tmpdir(), "no-prebundling-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Each environment's dependencies to pre-bundle, and whether it looks for more, as Vite resolves them. */
async function prebundled(plugins: PluginOption[]) {
  const config = await resolveConfig(
    { root, configFile: false, logLevel: "silent", plugins, optimizeDeps: { include: ["react", "react-dom/client"] } },
    "serve",
  );
  return Object.fromEntries(
    Object.entries(config.environments).map(([name, { optimizeDeps }]) => [
      name,
      { include: optimizeDeps.include, noDiscovery: optimizeDeps.noDiscovery },
    ]),
  );
}

describe("dependency pre-bundling", () => {
  it("is resolved here by the Vite Astro builds with (package.json pins the same version)", () => {
    const viteOf = (from: string) => createRequire(from).resolve("vite/package.json");
    expect(viteOf(import.meta.url)).toBe(viteOf(createRequire(import.meta.url).resolve("astro/package.json")));
  });

  it("is kept by astro dev: no plugin added, and Vite keeps the list (so the test below can fail)", async () => {
    expect(pluginsFor("dev")).toEqual([]);
    expect((await prebundled([])).client).toEqual({ include: ["react", "react-dom/client"], noDiscovery: false });
  });

  it.each<Command>(["build", "sync"])(
    "is off in astro %s: every environment pre-bundles nothing and looks for nothing",
    async (command) => {
      const plugins = pluginsFor(command);
      expect(plugins).toHaveLength(1);
      // A plugin whose `config` hook runs after this one's and adds a dependency, as others do in a build.
      const late: PluginOption = { name: "adds-late", enforce: "post", config: () => ({ optimizeDeps: { include: ["react-dom"] } }) };
      const environments = await prebundled([...plugins, late]);
      expect(Object.keys(environments)).toEqual(expect.arrayContaining(["client", "ssr"]));
      for (const [name, settings] of Object.entries(environments)) expect(settings, name).toEqual({ include: [], noDiscovery: true });
    },
  );
});
