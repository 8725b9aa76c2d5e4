/**
 * The programs from outside npm that some test suites drive: browsers, a WebDriver, nginx, Ceph. Each is
 * looked for first. Missing locally, its suites are skipped with one line naming the install command;
 * with CI=true, missing is a failure (CI must prove everything). Debian package names throughout:
 * the tests run Debian's builds, and no browser is ever downloaded.
 */
import { existsSync } from "node:fs";
import { spawnSync } from "node:child_process";
import { findTestChrome } from "../../lib/chrome.ts";

/** nginx's brotli module as Debian's libnginx-mod-http-brotli-static installs it. */
export const BROTLI_MODULE = "/usr/lib/nginx/modules/ngx_http_brotli_static_module.so";

export function findNginx(): string | null {
  for (const candidate of ["/usr/sbin/nginx", "/usr/local/sbin/nginx", "/usr/bin/nginx"]) if (existsSync(candidate)) return candidate;
  const which = spawnSync("sh", ["-c", "command -v nginx"], { encoding: "utf8" });
  return which.status === 0 ? which.stdout.trim() : null;
}

export interface SystemDep {
  /** What the suite needs, as a reader would name it. */
  label: string;
  /** Debian packages that provide it. */
  packages: string[];
  /** Where it was found, or null. */
  find(): string | null;
}

const firstExisting = (paths: string[]) => paths.find((path) => existsSync(path)) ?? null;
/**
 * A variable that names a program wins outright: set to a path that does not exist, the program
 * counts as missing (so `FIREFOX_PATH=/nonexistent npm test` shows what a machine without it sees).
 */
const fromEnvOr = (variable: string, fallback: () => string | null) => {
  const named = process.env[variable];
  if (named === undefined) return fallback();
  return named !== "" && existsSync(named) ? named : null;
};
const onPath = (name: string) => {
  const found = spawnSync("sh", ["-c", `command -v ${name}`], { encoding: "utf8" });
  return found.status === 0 ? found.stdout.trim() : null;
};

export const MINIBROWSER_PATHS = [
  "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser",
  "/usr/lib/aarch64-linux-gnu/webkit2gtk-4.1/MiniBrowser",
  "/usr/libexec/webkit2gtk-4.1/MiniBrowser",
];

/** WebKit's pieces: the driver, the browser it starts, and the virtual display it runs on (no headless mode). */
export const findWebKitWebDriver = () =>
  fromEnvOr("WEBKIT_WEBDRIVER_PATH", () => firstExisting(["/usr/bin/WebKitWebDriver"]) ?? onPath("WebKitWebDriver"));
export const findMiniBrowser = () => fromEnvOr("MINIBROWSER_PATH", () => firstExisting(MINIBROWSER_PATHS));
export const findXvfb = () => fromEnvOr("XVFB_PATH", () => onPath("Xvfb"));

export const systemDeps = {
  chromium: {
    label: "Chromium",
    // The suites drive the headless shell (lib/chrome.ts), the benchmarks and the records' captures the
    // full browser. The visual baselines are the shell's pixels with DejaVu, the font the system stack
    // resolves to there.
    packages: ["chromium", "chromium-headless-shell", "fonts-dejavu-core"],
    find: () => {
      try {
        return findTestChrome() ?? null;
      } catch {
        // CHROME_PATH names a file that is not there.
        return null;
      }
    },
  },
  firefox: {
    label: "Firefox ESR",
    packages: ["firefox-esr"],
    find: () => fromEnvOr("FIREFOX_PATH", () => firstExisting(["/usr/bin/firefox-esr", "/usr/bin/firefox"])),
  },
  webkit: {
    label: "WebKitWebDriver, MiniBrowser and Xvfb",
    packages: ["webkit2gtk-driver", "xvfb"],
    find: () => {
      const driver = findWebKitWebDriver();
      return driver && findMiniBrowser() && findXvfb() ? driver : null;
    },
  },
  nginx: {
    label: "nginx with its brotli module",
    packages: ["nginx", "libnginx-mod-http-brotli-static"],
    find: () => {
      const nginx = findNginx();
      return nginx && existsSync(BROTLI_MODULE) ? nginx : null;
    },
  },
  radosgw: {
    label: "Ceph's S3 gateway (radosgw)",
    // A one-node cluster for the records store's Object Lock tests: the gateway, a monitor and an OSD.
    packages: ["radosgw", "ceph-mon", "ceph-osd"],
    find: () => {
      const found = firstExisting(["/usr/bin/radosgw"]);
      return found && existsSync("/usr/bin/ceph-mon") && existsSync("/usr/bin/ceph-osd") ? found : null;
    },
  },
  systemd: {
    label: "systemd-analyze",
    // The studio's unit is checked offline (verify, security); systemd need not be running.
    packages: ["systemd"],
    find: () => fromEnvOr("SYSTEMD_ANALYZE_PATH", () => onPath("systemd-analyze")),
  },
} satisfies Record<string, SystemDep>;

export type SystemDepName = keyof typeof systemDeps;

/** The one command that installs every program the suites use (Debian 12). */
export const INSTALL_ALL = `sudo apt-get install --no-install-recommends ${[
  ...new Set(Object.values(systemDeps).flatMap((dep) => dep.packages)),
].join(" ")}`;

export const isCI = () => /^(1|true)$/i.test(process.env.CI ?? "");

/** The line a visitor of the test output reads when a suite cannot run here. */
export function missingLine(name: SystemDepName): string {
  const dep = systemDeps[name];
  const command = `sudo apt-get install --no-install-recommends ${dep.packages.join(" ")}`;
  return isCI()
    ? `FAILED: ${dep.label} not found, and CI must run every suite. Install it with: ${command}`
    : `skipped: ${dep.label} not found. Install it with: ${command}`;
}

/** Whether the suites needing `name` can run; when not, prints the line once per process. */
const announced = new Set<string>();
export function available(name: SystemDepName): boolean {
  if (systemDeps[name].find()) return true;
  if (!announced.has(name)) {
    announced.add(name);
    console.log(missingLine(name));
  }
  return false;
}
