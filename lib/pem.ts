/**
 * A setting that holds PEM text: the text itself (as a CI secret holds it, starting "-----BEGIN") or the
 * path of a file that holds it. ARCHIVE_TSA_CA and ARCHIVE_WACZ_KEY are read this way.
 */
import { readFileSync } from "node:fs";

/**
 * The PEM text of `variable`, or undefined when it is unset or empty. A file that cannot be read, or
 * that holds no PEM, is refused with one sentence naming the variable and the file, made into the
 * caller's own error by `refuse`.
 */
export function pemSetting(
  variable: string,
  value: string | undefined,
  refuse: (message: string, cause?: unknown) => Error,
): string | undefined {
  const text = value?.trim();
  if (!text) return undefined;
  if (text.startsWith("-----BEGIN")) return value;
  let pem: string;
  try {
    pem = readFileSync(text, "utf8");
  } catch (error) {
    throw refuse(
      `${variable} names the file ${text}, which cannot be read (${(error as NodeJS.ErrnoException).code ?? String(error)}).`,
      error,
    );
  }
  if (!pem.includes("-----BEGIN")) throw refuse(`${variable} names the file ${text}, which holds no PEM text.`);
  return pem;
}
