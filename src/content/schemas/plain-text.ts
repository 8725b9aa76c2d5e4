/**
 * Copy is plain text. React shows a tag typed into a field as the characters typed, so it can never run;
 * but a principal would approve "<b>" as words, and a visitor would read it so: a "<" that opens a tag,
 * a comment or a declaration is refused where it is typed (the build's schemas, and the studio's fields,
 * which are generated from them). "<" before a space or a digit ("latency < 1 ms") stays allowed.
 */
import { z } from "zod";

/** No "<" followed by a letter, "/", "!" or "?": what HTML would read as the start of markup. */
export const NO_MARKUP = /^(?![\s\S]*<[A-Za-z!/?])/;
export const NO_MARKUP_MESSAGE = "plain text only: no HTML (a tag such as <b> or <script> is not allowed in copy)";

/** A trimmed string of at least `min` characters (and at most `max`, when given), in plain text. */
export const plainText = (min: number, max?: number) => {
  const text = z.string().trim().min(min);
  return (max === undefined ? text : text.max(max)).regex(NO_MARKUP, NO_MARKUP_MESSAGE);
};
