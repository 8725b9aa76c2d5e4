/**
 * Settings that hold PEM text (lib/pem.ts): the text itself, as the workflows pass a secret, or a file's
 * path, as an operator sets it; ARCHIVE_WACZ_KEY read both ways into the same signing key.
 */
import { generateKeyPairSync } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { pemSetting } from "../../lib/pem.ts";
import { publicKeyOf, signingKeyFrom } from "../../lib/records/wacz.ts";

const folder = mkdtempSync(join(tmpdir(), "pem-setting-"));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const refuse = (message: string) => new Error(message);

describe("a PEM setting", () => {
  const pem = generateKeyPairSync("ec", { namedCurve: "P-384" }).privateKey.export({ type: "pkcs8", format: "pem" }) as string;
  const file = join(folder, "key.pem");
  writeFileSync(file, pem);

  it("is the text itself or the file named, and nothing when unset or blank", () => {
    expect(pemSetting("ARCHIVE_WACZ_KEY", pem, refuse)).toBe(pem);
    expect(pemSetting("ARCHIVE_WACZ_KEY", file, refuse)).toBe(pem);
    expect(pemSetting("ARCHIVE_WACZ_KEY", undefined, refuse)).toBeUndefined();
    expect(pemSetting("ARCHIVE_WACZ_KEY", "  ", refuse)).toBeUndefined();
  });

  it("refuses a file that cannot be read, or holds no PEM, in one sentence naming the variable and the file", () => {
    const missing = join(folder, "missing.pem");
    expect(() => pemSetting("ARCHIVE_WACZ_KEY", missing, refuse)).toThrow(
      `ARCHIVE_WACZ_KEY names the file ${missing}, which cannot be read (ENOENT).`,
    );
    const notes = join(folder, "notes.txt");
    writeFileSync(notes, "not a key\n");
    expect(() => pemSetting("ARCHIVE_WACZ_KEY", notes, refuse)).toThrow(
      `ARCHIVE_WACZ_KEY names the file ${notes}, which holds no PEM text.`,
    );
  });

  it("gives ARCHIVE_WACZ_KEY's one signing key whether the secret's text or its file is set", () => {
    const [fromText, fromFile] = [signingKeyFrom(pem), signingKeyFrom(file)];
    expect(publicKeyOf(fromText!).fingerprint).toBe(publicKeyOf(fromFile!).fingerprint);
    expect(signingKeyFrom("")).toBeUndefined();
  });
});
