/**
 * decap-server's git middleware, in a process of its own, on a Unix socket only the studio's user can
 * open (mode 0600, in a folder of mode 0700): decap-server has no authentication by design, so it is
 * never on a TCP port. The studio (decap/backend.ts) starts this with GIT_REPO_DIRECTORY and
 * STUDIO_DECAP_SOCKET set, and forwards the git actions it allows. One clone per process: the
 * middleware reads the repository from the environment.
 */
import { chmodSync, rmSync } from "node:fs";
import express from "express";
import middlewares from "decap-server/dist/middlewares.js";
import { AUTHOR_HEADER, type Author } from "./backend.ts";

const socket = process.env.STUDIO_DECAP_SOCKET;
if (!socket || !process.env.GIT_REPO_DIRECTORY) throw new Error("decap child: STUDIO_DECAP_SOCKET and GIT_REPO_DIRECTORY must be set");

// Created 0600 from the start (no moment with wider rights), and again after listen for certainty.
process.umask(0o077);
rmSync(socket, { force: true });
const app = express();
/**
 * Who a write's commits are authored by (backend.ts): decap-server's git inherits this process's environment,
 * so it is set there for the call, and taken away when its answer is sent. The studio sends one write at a
 * time; a read beside it commits nothing.
 */
app.use((req, res, next) => {
  const header = req.get(AUTHOR_HEADER);
  if (!header) return next();
  try {
    const { name, email } = JSON.parse(Buffer.from(header, "base64").toString("utf8")) as Author;
    if (typeof name !== "string" || typeof email !== "string") throw new Error("not an author");
    process.env.GIT_AUTHOR_NAME = name;
    process.env.GIT_AUTHOR_EMAIL = email;
  } catch {
    return void res.status(400).json({ error: "The studio sent an author this process cannot read." });
  }
  res.once("close", () => {
    delete process.env.GIT_AUTHOR_NAME;
    delete process.env.GIT_AUTHOR_EMAIL;
  });
  next();
});
await middlewares.registerLocalGit(app, { logLevel: process.env.STUDIO_DECAP_LOG ?? "warn" });
const server = app.listen(socket, () => {
  chmodSync(socket, 0o600);
  process.send?.("listening");
});
const stop = () => server.close(() => process.exit(0));
process.on("disconnect", stop);
process.on("SIGTERM", stop);
