import type { AstroIntegration } from "astro";
import type { Plugin } from "vite";

/**
 * No dependency pre-bundling where no browser is served: in `astro build` and `astro sync` (decision 0064).
 *
 * Before it builds, Astro syncs the content layer through a throw-away Vite dev server, which pre-bundled
 * the dependencies Astro and @astrojs/react list (React, Astro's runtime) into `node_modules/.vite/deps/`.
 * Nothing reads them: that server only imports the content configuration, in Node, and a build bundles
 * its dependencies itself. Their hash includes the project's folder, so every build from another folder
 * (each preview build of the studio, each copy of the project in the tests) removed the folder and wrote
 * it again: 0.1–0.4 s and 0.3–0.5 CPU-s of every build, in a folder those copies share through their
 * linked `node_modules`.
 *
 * `astro dev` keeps pre-bundling: its browser loads React's CommonJS through it.
 */
export function noPrebundling(): AstroIntegration {
  const plugin: Plugin = {
    name: "no-prebundling",
    // After every plugin's `config` hook, which may add dependencies to the list; per environment, since
    // each has its own. The list is emptied in place: a list returned would be added to the one there.
    configEnvironment(_name, config) {
      config.optimizeDeps = { ...config.optimizeDeps, include: [], noDiscovery: true };
    },
  };
  return {
    name: "no-prebundling",
    hooks: {
      "astro:config:setup": ({ command, updateConfig }) => {
        if (command === "build" || command === "sync") updateConfig({ vite: { plugins: [plugin] } });
      },
    },
  };
}
