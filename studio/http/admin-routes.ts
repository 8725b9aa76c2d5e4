/**
 * The admin page and its assets, who is signed in (for the admin module's bar), and the preview pane:
 * `POST /admin/preview` draws an entry with the site's own components; `/admin/preview.css` is the
 * site's stylesheet (studio/preview/, decision 0022).
 */
import { createReadStream } from "node:fs";
import { Readable } from "node:stream";
import { promisify } from "node:util";
import { brotliCompress, constants } from "node:zlib";
import { Hono, type Context } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { StudioEnv } from "../auth/routes.ts";
import { ROLE_LABEL } from "../auth/roles.ts";
import { STUDIO_CSS, STUDIO_CSS_PATH } from "../pages/stylesheet.ts";
import type { PreviewRequest } from "../preview/index.ts";
import { sha256Hex } from "../../lib/hash.ts";
import { ADMIN_CSS, adminHtml, adminModule } from "./admin-assets.ts";
import { decapBundle, IMMUTABLE } from "./admin-bundle.ts";

export const MAX_BODY = 50 * 1024 * 1024;

export function adminAssetRoutes({ root, config }: { root: string; config: () => string }) {
  const app = new Hono<StudioEnv>();
  const decap = decapBundle();
  const module = adminModule().then((text) => hashed("studio", ".js", text));
  const css = hashed("studio-admin", ".css", ADMIN_CSS);
  // The preview pane's stylesheet and renderer, made from the start so they are ready when an entry opens.
  // Loaded on its own (esbuild, Tailwind's compiler), so the studio's start does not wait for them.
  const preview = () => import("../preview/index.ts").then(({ sitePreview }) => sitePreview(root));
  void preview().catch(() => undefined);
  void module.catch(() => undefined);

  app.get("/", (c) => c.redirect("/admin/", 302));
  app.get("/admin", (c) => c.redirect("/admin/", 302));
  // The page itself is asked for again at every visit (it names the files of this studio's version); what it loads is kept.
  app.get("/admin/", async (c) =>
    c.html(adminHtml({ decap: `${decap.base}decap-cms.js`, module: (await module).path, css: css.path }), 200, {
      "Cache-Control": "no-cache",
    }),
  );
  app.get("/admin/config.yml", (c) => sendText(c, config(), "text/yaml"));
  app.get("/admin/:file{studio\\.[0-9a-f]{12}\\.js}", async (c) => sendHashed(c, await module, "text/javascript"));
  app.get("/admin/:file{studio-admin\\.[0-9a-f]{12}\\.css}", (c) => sendHashed(c, css, "text/css"));
  // Named by its hash: a browser keeps it for a year and asks again only when it changes.
  app.get(STUDIO_CSS_PATH, (c) => sendText(c, STUDIO_CSS, "text/css", "immutable"));
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
  app.get("/admin/preview.css", async (c) => sendText(c, (await preview()).css, "text/css"));
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
  // Decap's files under the hash of their contents: public (Decap's own code, the same for everyone), kept for a year.
  app.get("/admin/decap/:version/:name", (c) => {
    const { version, name } = c.req.param();
    const file = version === decap.version ? decap.file(name, c.req.header("accept-encoding") ?? "") : null;
    if (!file) return c.text("Not found\n", 404);
    const type = name.endsWith(".css") ? "text/css" : name.endsWith(".wasm") ? "application/wasm" : "text/javascript";
    const etag = `"${version}-${name}-${file.encoding ?? "identity"}"`;
    const headers: Record<string, string> = { "Cache-Control": `public, ${IMMUTABLE}`, ETag: etag, Vary: "Accept-Encoding" };
    if (matches(c.req.header("if-none-match"), etag)) return c.body(null, 304, headers);
    if (file.encoding) headers["Content-Encoding"] = file.encoding;
    headers["Content-Length"] = String(file.size);
    headers["Content-Type"] = `${type}${type === "application/wasm" ? "" : "; charset=utf-8"}`;
    if (c.req.method === "HEAD") return c.body(null, 200, headers);
    return c.body(Readable.toWeb(createReadStream(file.path)) as ReadableStream, 200, headers);
  });
  return app;
}

/** One of the studio's own files, named by its hash (`/admin/<stem>.<hash><ext>`). */
function hashed(stem: string, ext: string, body: string) {
  return { path: `/admin/${stem}.${sha256Hex(body).slice(0, 12)}${ext}`, body };
}

/** Brotli copies of the studio's own texts, by their tag (a few, each made once). */
const brotliCopies = new Map<string, Promise<Buffer>>();

/**
 * One of the studio's own texts, with a strong tag made from its bytes (304 while it is the same) and
 * brotli-compressed when the browser takes it. `cache`: `no-cache` for a name Decap asks for at every
 * visit (its configuration, the preview pane's stylesheet); for a name that carries the hash, kept by the
 * editor's browser only (`private`: the firm's code) for a year.
 */
async function sendText(c: Context<StudioEnv>, body: string, type: string, cache: "no-cache" | "immutable" = "no-cache") {
  const etag = `"${sha256Hex(body).slice(0, 16)}"`;
  const headers: Record<string, string> = {
    "Cache-Control": cache === "immutable" ? `private, ${IMMUTABLE}` : "no-cache",
    ETag: etag,
    Vary: "Accept-Encoding",
  };
  if (matches(c.req.header("if-none-match"), etag)) return c.body(null, 304, headers);
  headers["Content-Type"] = `${type}; charset=utf-8`;
  if (!/\bbr\b/.test(c.req.header("accept-encoding") ?? "")) return c.body(body, 200, headers);
  let copy = brotliCopies.get(etag);
  if (!copy) {
    if (brotliCopies.size >= 8) brotliCopies.clear();
    copy = promisify(brotliCompress)(Buffer.from(body), { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } });
    brotliCopies.set(etag, copy);
  }
  headers["Content-Encoding"] = "br";
  return c.body(new Uint8Array(await copy), 200, headers);
}

/** A hashed file of the studio's own at exactly its path. */
const sendHashed = (c: Context<StudioEnv>, file: { path: string; body: string }, type: string) =>
  c.req.path === file.path ? sendText(c, file.body, type, "immutable") : c.text("Not found\n", 404);

/** Whether an If-None-Match names this strong tag (or is `*`). */
const matches = (header: string | undefined, etag: string) =>
  header !== undefined && header.split(",").some((tag) => tag.trim() === "*" || tag.trim().replace(/^W\//, "") === etag);
