import type { AstroIntegration } from "astro";

/**
 * `npm run dev` marks pages whose text is not approved exactly as the preview build does (banner and
 * `noindex`). Only the dev server gets the middleware: the production build is checked by
 * scripts/postbuild.ts, which fails it instead.
 */
export function approvalDrafts(): AstroIntegration {
  return {
    name: "approval-drafts",
    hooks: {
      "astro:config:setup": ({ command, addMiddleware }) => {
        if (command === "dev") addMiddleware({ entrypoint: new URL("./dev-middleware.ts", import.meta.url), order: "post" });
      },
    },
  };
}
