/**
 * The addresses of document pages. A page the firm adds in the content studio takes its address from
 * its title, once, when it is created (src/content/disclosures/<address>.md), so the address must be
 * one no route of the site uses or keeps for itself. One rule for the build (src/build/documents.ts),
 * which fails naming the file, and the studio (studio/workflow/new-pages.ts), which refuses the save.
 */

/** Lower-case letters and digits in words joined by single hyphens: "fee-schedule", "form-crs-2026". */
export const ADDRESS_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/**
 * First path segments the site uses or keeps, and whose they are. `/_astro`, `/.well-known`, `/_headers`
 * and `/_redirects` need no row: no address of the pattern starts with "_" or ".".
 * tests/unit/addresses.test.ts checks that every route file in src/pages and every icon has its row.
 */
export const RESERVED_ADDRESSES: Readonly<Record<string, string>> = {
  index: "the landing page",
  "404": "the not-found page",
  "not-found": "the not-found answer on static hosts",
  disclosures: "the disclosures index",
  og: "the pages' Open Graph images",
  favicon: "the site's icons",
  "favicon-32": "the site's icons",
  "apple-touch-icon": "the site's icons",
  "icon-192": "the site's icons",
  "icon-512": "the site's icons",
  manifest: "the web app manifest",
  sitemap: "the sitemap",
  robots: "robots.txt",
  admin: "the content studio",
  api: "the content studio",
  auth: "the content studio",
};

/**
 * Why a new page may not have `address`, in one sentence; null when it may. `taken` names the pages
 * that exist (by address), so the sentence can say whose the address is.
 */
export function addressRefusal(address: string, taken: ReadonlyMap<string, string>): string | null {
  if (!ADDRESS_PATTERN.test(address))
    return address
      ? `The address /${address}, made from the title, may have only lower-case letters, digits and single hyphens: change the title.`
      : "The title gives no address (it needs letters or digits): change the title.";
  const owner = RESERVED_ADDRESSES[address] ?? taken.get(address);
  return owner ? `The address /${address}, made from the title, is taken by ${owner}: give the page a title of its own.` : null;
}

/**
 * The address a title makes, as the content studio makes it (Decap's slug with `encoding: "ascii"` and
 * `clean_accents`): lower case, accents dropped, every other character a hyphen, hyphens single.
 */
export function addressOf(title: string): string {
  return title
    .trim()
    .toLowerCase()
    .replace(/'/g, "")
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^a-z0-9_~-]+/g, "-")
    .replace(/-+/g, "-")
    .replace(/^-|-$/g, "");
}
