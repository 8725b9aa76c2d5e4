/**
 * What the Records answer to an address they cannot show (issue 49): a 4xx page in one sentence that
 * names what was not found, with the way on, never a 5xx and never another page in its place. The
 * address's parts are read here, each inside its own error handling: a malformed %-escape is bad input,
 * not a fault of the studio.
 */
import type { CaptureEntry } from "../../lib/records/catalog.ts";
import { CAPTURE_NAME } from "../../lib/records/manifest.ts";
import type { Session } from "../auth/sessions.ts";
import type { ReactNode } from "react";
import { StudioPage } from "../pages/studio-page.tsx";
import { dateWritten } from "./format.ts";
import type { Overlays } from "./replay-overlays.ts";
import { captureUrl } from "./timeline.tsx";

/** A Records page that refuses: its title, its one sentence as an alert, and what to do instead (its children). */
export function RefusalPage({
  session,
  title,
  sentence,
  children,
}: {
  session: Session;
  title: string;
  sentence: string;
  children?: ReactNode;
}) {
  return (
    <StudioPage title={title} session={session}>
      <h1>{title}</h1>
      <p role="alert">{sentence}</p>
      {children}
      <p>
        <a href="/admin/records">All records</a>
      </p>
    </StudioPage>
  );
}

/** The sentence for a capture name the store does not have (or that is no capture's name at all). */
export const noSuchCapture = (name: string) =>
  CAPTURE_NAME.test(name)
    ? `The store has no capture named ${name}: the timeline lists every capture it has.`
    : `"${name}" is not the name of a capture: a capture is named by the UTC time it was made, as 20260314T061700Z.`;

/** The page of a capture that has no page at the address asked for, listing the pages it has. */
export function NoSuchPage({ session, entry, page }: { session: Session; entry: CaptureEntry; page: string }) {
  return (
    <RefusalPage
      session={session}
      title="No such page in this capture"
      sentence={`The capture of ${dateWritten(entry.time, true)} has no page at ${page}.`}
    >
      <p>Its pages:</p>
      <ul className="pages">
        {entry.pages.map((p) => (
          <li key={p.path}>
            <a href={`${captureUrl(entry.name)}?page=${encodeURIComponent(p.path)}`}>{p.title}</a>
          </li>
        ))}
      </ul>
    </RefusalPage>
  );
}

/**
 * The path of a stored file from the request's own (still escaped) path, after `/files/`: decoded here,
 * so that a malformed escape is answered as bad input.
 */
export function storedFilePath(rawPath: string): { path: string } | { malformed: string } {
  const escaped = rawPath.split("/files/").slice(1).join("/files/");
  try {
    return { path: decodeURIComponent(escaped) };
  } catch {
    return { malformed: escaped };
  }
}

/**
 * The two captures a comparison asks for: both complete captures of the store, or why not (400 when
 * one is missing, 404 naming the one the store has no complete capture of). Neither asked: no pair.
 */
export function comparedPair(
  entries: CaptureEntry[],
  a: string | undefined,
  b: string | undefined,
): { pair?: { a: CaptureEntry; b: CaptureEntry } } | { refused: string; status: 400 | 404 } {
  if (a === undefined && b === undefined) return {};
  for (const name of [a, b]) {
    if (!name) continue;
    const entry = entries.find((e) => e.name === name);
    if (!entry) return { refused: noSuchCapture(name), status: 404 };
    if (!entry.complete)
      return {
        refused: `The capture of ${dateWritten(entry.time, true)} never finished, so there is nothing in it to compare.`,
        status: 404,
      };
  }
  if (!a || !b) return { refused: "Choose both captures to compare: the earlier and the later.", status: 400 };
  const named = (name: string) => entries.find((e) => e.name === name)!;
  return { pair: { a: named(a), b: named(b) } };
}

/** The view of a replay asked for (`overlays=closed`); undefined for a value that names no view. */
export function overlaysAsked(value: string | undefined): Overlays | undefined {
  if (value === undefined || value === "" || value === "shown") return "shown";
  return value === "closed" ? "closed" : undefined;
}
