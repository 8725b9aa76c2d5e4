/**
 * Every command README.md offers people (its Scripts table: the site, both demos, the records' capture,
 * verification and export; `npm test` is CI's own), run from a fresh clone of this repository's HEAD as
 * the README writes it, each until it serves (a URL that answers, a person signed in where it is a
 * studio) or exits 0. The arguments come from the README itself, so a form it shows that stops working,
 * or a README that shows another, fails here.
 *
 * The clone's node_modules is this project's, linked: the README's `npm install` would install the same
 * lockfile into the same tree (checked below: the clone's package.json and lockfile are the ones this
 * node_modules was installed from), and `.ci/run` has just run `npm ci` on it. What an install from
 * nothing gives is proved by tests/integration/production-install.test.ts (`npm ci --omit=dev`) and by
 * `.ci/run` itself.
 *
 * Without Chromium (the captures) the file is skipped locally, with one line naming the apt command;
 * with CI=true it fails.
 */
import { existsSync, readdirSync, readFileSync, symlinkSync, appendFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot } from "../../lib/root.ts";
import { available, isCI, missingLine } from "../../scripts/lib/system-deps.ts";
import { freshClone, runCommand, shellEnv, startCommand, type Serving } from "../support/commands.ts";
import { signInByForm } from "../support/sign-in.ts";

const noChromium = available("chromium") ? undefined : missingLine("chromium");
if (noChromium && !isCI()) console.log(`README commands: skipped: ${noChromium}`);

const readme = readFileSync(join(projectRoot, "README.md"), "utf8");

/** The README's Scripts table: each script's cell and the argument forms (`-- …`) its description shows. */
function scriptForms(script: string): string[][] {
  const row = readme.split("\n").find((line) => line.startsWith(`| \`${script}\``));
  if (!row) throw new Error(`README.md's Scripts table has no row for ${script}`);
  // A placeholder (`<capture folder>`) is one argument.
  return [...row.matchAll(/`(-- [^`]+)`/g)].map(([, form]) => form!.match(/<[^>]+>|\S+/g)!.slice(1));
}

/** A person's git identity (records:export names who exports; the README's forms leave --by out). */
const PERSON = {
  GIT_CONFIG_COUNT: "2",
  GIT_CONFIG_KEY_0: "user.name",
  GIT_CONFIG_VALUE_0: "Rita Reader",
  GIT_CONFIG_KEY_1: "user.email",
  GIT_CONFIG_VALUE_1: "rita@example.com",
};

let clone: Awaited<ReturnType<typeof freshClone>>;
let project = "";
const running: Serving[] = [];
const npm = (args: string[], extra: Record<string, string> = {}) =>
  runCommand("npm", args, { cwd: project, env: shellEnv({ ...PERSON, ...extra }) });
const serve = async (args: string[], ready: RegExp, extra: Record<string, string> = {}, timeoutMs = 280_000) => {
  const command = await startCommand("npm", args, { cwd: project, env: shellEnv({ ...PERSON, ...extra }), ready, timeoutMs });
  running.push(command);
  return command;
};

/** The studio's address and each person's password, as the demo prints them. */
function demoPrinted(output: string) {
  const url = /Content studio \(server mode, demo\): (http:\/\/127\.0\.0\.1:\d+)\/admin\//.exec(output)?.[1];
  const password = (email: string) => new RegExp(`${email.replace(/\./g, "\\.")}\\s+(\\S+)\\s`).exec(output)?.[1];
  expect(url, output).toBeDefined();
  return { url: url!, password: (email: string) => password(email)! };
}

beforeAll(async () => {
  if (noChromium && !isCI()) return;
  clone = await freshClone("readme-commands-");
  project = clone.dir;
  for (const file of ["package.json", "package-lock.json"])
    expect(readFileSync(join(project, file), "utf8"), `${file} differs from the one this node_modules was installed from`).toBe(
      readFileSync(join(projectRoot, file), "utf8"),
    );
  symlinkSync(join(projectRoot, "node_modules"), join(project, "node_modules"), "dir");
  // The project's .gitignore names the folder node_modules/, which a symlink is not.
  appendFileSync(join(project, ".git", "info", "exclude"), "/node_modules\n");
});
afterAll(async () => {
  await Promise.all(running.map((command) => command.stop()));
  await clone?.remove();
}, 600_000);

describe.skipIf(noChromium && !isCI())("the README's commands, from a fresh clone", () => {
  if (noChromium) it("needs Chromium", () => expect.fail(noChromium));

  it("npm start builds the site, then serves it (PORT and HOST as the README says)", async () => {
    expect(readme).toContain("npm install && npm start");
    const server = await serve(["start"], /Serving dist\/ at (http:\/\/127\.0\.0\.1:\d+)/, { PORT: "0", HOST: "127.0.0.1" });
    const origin = server.match[1]!;
    expect((await fetch(`${origin}/`)).status).toBe(200);
    expect((await fetch(`${origin}/no-such-page`)).status).toBe(404);
    await server.stop();
  }, 300_000);

  let capture = "";
  it("npm run records:capture captures the site into archive/, and npm run records:verify -- <capture folder> accepts it", async () => {
    const archived = await npm(["run", "records:capture"]);
    expect(archived.status, archived.output).toBe(0);
    const names = readdirSync(join(project, "archive")).filter((name) => !name.startsWith("."));
    expect(names).toHaveLength(1);
    capture = join("archive", names[0]!);
    const form = scriptForms("npm run records:verify").find((args) => args.join(" ") === "<capture folder>");
    expect(form, "the README's records:verify form for a capture folder").toBeDefined();
    const verified = await npm(["run", "records:verify", "--", ...form!.map((arg) => (arg === "<capture folder>" ? capture : arg))]);
    expect(verified.status, verified.output).toBe(0);
  }, 300_000);

  let store = "";
  it("npm run records:demo starts the studio with its records; Casey Compliance signs in and opens them", async () => {
    // Two captures of the site in Chromium before it serves: ten minutes at most, on a machine loaded
    // ten times over its two cores (over 300 s there beside a busy core; 120 to 160 s at half that load).
    const demo = await serve(["run", "records:demo"], /Ctrl\+C stops the demo\./, { PORT: "0" }, 570_000);
    const printed = demoPrinted(demo.output());
    store = /Records: \S+ \(store ([^)]+)\)/.exec(demo.output())?.[1] ?? "";
    expect(existsSync(store), demo.output()).toBe(true);
    const casey = "casey.compliance@example.com";
    const jar = await signInByForm(printed.url, casey, printed.password(casey), "/admin/records");
    // A first look while the studio still checks the store's captures gets the page that says how far it
    // is and loads itself again every few seconds (a 503, data-building): followed as the person's browser does.
    let answer = { status: 0, text: "" };
    await expect
      .poll(
        async () => {
          const records = await jar.fetch(`${printed.url}/admin/records`, { headers: { Accept: "text/html" } });
          answer = { status: records.status, text: await records.text() };
          return answer.status === 503 && answer.text.includes("data-building") ? "checking the store" : "answered";
        },
        { timeout: 120_000, interval: 1_000 },
      )
      .toBe("answered");
    expect(answer.status, answer.text).toBe(200);
    expect(answer.text).toContain("<h1>Records</h1>");
    expect(answer.text).not.toContain("data-building");
    await demo.stop();
  }, 600_000);

  it("npm run records:export, in each form the README shows, writes a zip that npm run records:verify -- <export.zip> accepts", async () => {
    // The README's dates are the records demo's days in March 2026: its store is where they are.
    const forms = scriptForms("npm run records:export");
    expect(forms).toHaveLength(2);
    const verify = scriptForms("npm run records:verify").find((args) => args.join(" ") === "<export.zip>");
    expect(verify, "the README's records:verify form for an export").toBeDefined();
    for (const form of forms) {
      const exported = await npm(["run", "records:export", "--", ...form], { ARCHIVE_STORE: store });
      expect(exported.status, `records:export -- ${form.join(" ")}:\n${exported.output}`).toBe(0);
      const zip = form[form.indexOf("--out") + 1]!;
      expect(existsSync(join(project, zip))).toBe(true);
      const verified = await npm(["run", "records:verify", "--", ...verify!.map((arg) => (arg === "<export.zip>" ? zip : arg))]);
      expect(verified.status, `records:verify -- ${zip}:\n${verified.output}`).toBe(0);
    }
  }, 300_000);

  it("npm run studio:demo starts the team studio and prints passwords with which a person signs in", async () => {
    const demo = await serve(["run", "studio:demo"], /Ctrl\+C stops the demo\./, { PORT: "0" });
    const printed = demoPrinted(demo.output());
    const erin = "erin.editor@example.com";
    const jar = await signInByForm(printed.url, erin, printed.password(erin));
    const admin = await jar.fetch(`${printed.url}/admin/`, { headers: { Accept: "text/html" } });
    expect(admin.status).toBe(200);
    expect(await admin.text()).toMatch(/src="\/admin\/decap\/[0-9a-f]{16}\/decap-cms\.js"/);
    await demo.stop();
  }, 300_000);
});
