/**
 * A site page's path and the files that hold it, one mapping for every tool: the build's HTML
 * (`index.html`, `privacy-policy.html`), the approved text (`approvals/text/<stem>.txt`), a capture's
 * PDF (`pdf/<stem>.pdf`), and back from a built file to its page. Pages are addressed without a
 * trailing slash or `.html` ("/", "/privacy-policy", "/404"): the build writes one file per page
 * (astro.config.mjs, `build.format: "file"`).
 */

/** "/" → "index", "/privacy-policy" → "privacy-policy", "/a/b" → "a/b". */
export const pageStem = (page: string) => (page === "/" ? "index" : page.replace(/^\/+/, ""));

/** The page's HTML file, relative to a build folder: "/" → "index.html", "/a" → "a.html". */
export const htmlFileOf = (page: string) => `${pageStem(page)}.html`;

/** A file name for the page in a flat folder (a capture's PDFs): "/a/b" → "a_b". */
export const flatStem = (page: string) => pageStem(page).replace(/\//g, "_");

/** The page a built HTML file holds, from its path relative to the build folder: index.html → "/", a.html → "/a". */
export function pageOfHtmlFile(relativeFile: string): string {
  const path = relativeFile
    .replace(/\\/g, "/")
    .replace(/\.html$/, "")
    .replace(/(^|\/)index$/, "");
  return `/${path}`.replace(/\/$/, "") || "/";
}
