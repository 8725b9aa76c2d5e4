import { createHash } from "node:crypto";

/** SHA-256 of a text (UTF-8) or bytes, hex: the one hash helper of the tools, tests and build. */
export const sha256Hex = (data: string | Uint8Array) => createHash("sha256").update(data).digest("hex");

/** The same in base64, as CSP source expressions and Subresource Integrity want it. */
export const sha256Base64 = (data: string | Uint8Array) => createHash("sha256").update(data).digest("base64");
