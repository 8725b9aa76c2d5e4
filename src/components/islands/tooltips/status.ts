/**
 * The header's status dot. It states only what a status page publishes: the firm's own page, in the
 * common Statuspage format (GET <page>/api/v2/status.json), read by the visitor's browser when the page
 * loads. No page configured, the dot says nothing about the platform's health (FINRA Rule 2210(d)(1):
 * no claim the site cannot back).
 */
export const STATUS_INDICATORS = ["none", "minor", "major", "critical", "maintenance"] as const;
export type StatusIndicator = (typeof STATUS_INDICATORS)[number];

/** What the dot shows: not configured, still asking, the page's answer, or no usable answer. */
export type StatusReading =
  | { kind: "unconfigured" }
  | { kind: "checking" }
  | { kind: "reported"; indicator: StatusIndicator; description: string }
  | { kind: "unavailable" };

/**
 * The page's answer, or "unavailable" for anything malformed. Checked by hand, not with Zod: this runs in
 * the browser, where Zod would add its weight and probe for eval (a CSP violation report on every load).
 */
export function readStatusJson(body: unknown): StatusReading {
  const status = (body as { status?: { indicator?: unknown; description?: unknown } } | null)?.status;
  const indicator = STATUS_INDICATORS.find((known) => known === status?.indicator);
  const description = typeof status?.description === "string" ? status.description.trim() : "";
  if (!indicator || !description || description.length > 200) return { kind: "unavailable" };
  return { kind: "reported", indicator, description };
}

export const statusJsonUrl = (statusUrl: string) => `${statusUrl.replace(/\/+$/, "")}/api/v2/status.json`;

/** Asks the status page; a network error, an HTTP error, bad JSON or no answer within the time is "unavailable". */
export async function fetchStatus(statusUrl: string, options: { fetch?: typeof fetch; timeoutMs?: number } = {}): Promise<StatusReading> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), options.timeoutMs ?? 8000);
  try {
    const response = await (options.fetch ?? fetch)(statusJsonUrl(statusUrl), {
      signal: controller.signal,
      credentials: "omit",
      referrerPolicy: "no-referrer",
      cache: "no-store",
      headers: { Accept: "application/json" },
    });
    if (!response.ok) return { kind: "unavailable" };
    return readStatusJson(await response.json());
  } catch {
    return { kind: "unavailable" };
  } finally {
    clearTimeout(timer);
  }
}

/**
 * The dot's words (src/content/landing/status.yaml); {host} and {description} are filled in. A page
 * carries only the words its configuration can show: without a status page, `unconfigured`; with one,
 * the other three.
 */
export type StatusWords = { unconfigured: string } | { checking: string; reported: string; unavailable: string };

/** The words and tone of the dot for a reading; `host` names the status page the answer came from. */
export function describeStatus(
  reading: StatusReading,
  host: string,
  words: StatusWords,
): { text: string; tone: "neutral" | StatusIndicator | "unknown" } {
  const fill = (template: string, description = "") => template.replace("{host}", host).replace("{description}", description);
  if ("unconfigured" in words) return { text: words.unconfigured, tone: "neutral" };
  switch (reading.kind) {
    case "unconfigured":
    case "checking":
      return { text: fill(words.checking), tone: "unknown" };
    case "reported":
      return { text: fill(words.reported, reading.description), tone: reading.indicator };
    case "unavailable":
      return { text: fill(words.unavailable), tone: "unknown" };
  }
}
