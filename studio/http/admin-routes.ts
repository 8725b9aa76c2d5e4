/**
 * The admin page and its assets, who is signed in (for the admin module's bar), and the preview pane:
 * `POST /admin/preview` draws an entry with the site's own components; `/admin/preview.css` is the
 * site's stylesheet (studio/preview/, decision 0022).
 */
import { createReadStream } from "node:fs";
import { join } from "node:path";
import { Readable } from "node:stream";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { StudioEnv } from "../auth/routes.ts";
import { ROLE_LABEL } from "../auth/roles.ts";
import { STUDIO_CSS, STUDIO_CSS_PATH } from "../pages/stylesheet.ts";
import type { PreviewRequest } from "../preview/index.ts";
import { ADMIN_CSS, ADMIN_HTML, adminModule, decapAssets, decapDist } from "./admin-assets.ts";

export const MAX_BODY = 50 * 1024 * 1024;

export function adminAssetRoutes({ root, config }: { root: string; config: () => string }) {
  const app = new Hono<StudioEnv>();
  const dist = decapDist();
  const assets = decapAssets();
  const module = adminModule();
  // The preview pane's stylesheet and renderer, made from the start so they are ready when an entry opens.
  // Loaded on its own (esbuild, Tailwind's compiler), so the studio's start does not wait for them.
  const preview = () => import("../preview/index.ts").then(({ sitePreview }) => sitePreview(root));
  void preview().catch(() => undefined);
  void module.catch(() => undefined);

  app.get("/", (c) => c.redirect("/admin/", 302));
  app.get("/admin", (c) => c.redirect("/admin/", 302));
  app.get("/admin/", (c) => c.html(ADMIN_HTML));
  app.get("/admin/config.yml", (c) => c.body(config(), 200, { "Content-Type": "text/yaml; charset=utf-8" }));
  app.get("/admin/studio.js", async (c) => c.body(await module, 200, { "Content-Type": "text/javascript; charset=utf-8" }));
  // Named by its hash: a browser keeps it for a year and asks again only when it changes.
  app.get(STUDIO_CSS_PATH, (c) =>
    c.body(STUDIO_CSS, 200, { "Content-Type": "text/css; charset=utf-8", "Cache-Control": "private, max-age=31536000, immutable" }),
  );
  app.get("/admin/studio-admin.css", (c) => c.body(ADMIN_CSS, 200, { "Content-Type": "text/css; charset=utf-8" }));
  app.get("/admin/session", (c) => {
    const { actor, csrf } = c.get("session");
    // Compliance reads Decap's entries and may change none of them (decap/screen.ts): the admin page says so before anything is filled.
    const edits = Boolean(actor.local) || actor.role !== "compliance";
    return c.json({
      name: actor.name,
      role: actor.local ? "one developer" : ROLE_LABEL[actor.role],
      csrf,
      local: Boolean(actor.local),
      edits,
    });
  });
  app.get("/admin/preview.css", async (c) => c.body((await preview()).css, 200, { "Content-Type": "text/css; charset=utf-8" }));
  app.post("/admin/preview", bodyLimit({ maxSize: MAX_BODY, onError: (c) => c.text("Too large\n", 413) }), async (c) => {
    if (!/^application\/json\b/.test(c.req.header("content-type") ?? "")) return c.text("JSON only\n", 415);
    let request: PreviewRequest;
    try {
      request = (await c.req.json()) as PreviewRequest;
    } catch {
      return c.json({ error: "The request is not JSON." }, 400);
    }
    const made = await preview().then(
      (ready) => ready.render(request),
      (error: Error) => ({ problems: [`The preview could not be made: ${error.message}`] }),
    );
    return c.json(made);
  });
  app.get("/admin/preview", (c) => c.text("POST only\n", 405));
  app.get("/admin/:name", (c) => {
    const name = c.req.param("name");
    if (!assets.has(name)) return c.text("Not found\n", 404);
    const type = name.endsWith(".css") ? "text/css" : name.endsWith(".wasm") ? "application/wasm" : "text/javascript";
    const stream = Readable.toWeb(createReadStream(join(dist, name))) as ReadableStream;
    return c.body(stream, 200, { "Content-Type": `${type}; charset=utf-8`, "Cache-Control": "no-cache" });
  });
  return app;
}
