/**
 * The facts of the site's configuration whose change is material to the pages that show them (issue 54,
 * item 8): the broker-dealer's name, its CRD number and its BrokerCheck address. Each approval records
 * them as they were (`facts` in the ledger), so that a page whose facts changed since its last review is
 * due at once, and the board and the reminder say which fact changed.
 */
import type { SiteConfig } from "../../src/config/site.ts";

export const MATERIAL_FACTS = [
  { key: "brokerDealerName", label: "the broker-dealer's name" },
  { key: "brokerDealerCrd", label: "the broker-dealer's CRD number" },
  { key: "brokerCheckUrl", label: "the BrokerCheck address" },
] as const satisfies ReadonlyArray<{ key: keyof SiteConfig; label: string }>;

export type Facts = Partial<Record<(typeof MATERIAL_FACTS)[number]["key"], string>>;

/** The material facts of a site configuration, as an approval records them. */
export const factsOf = (site: SiteConfig): Facts => Object.fromEntries(MATERIAL_FACTS.map(({ key }) => [key, site[key]])) as Facts;

/**
 * "the broker-dealer's CRD number changed (000000 → 1234567)": each fact that differs between `then` and
 * `now` and that the page shows (its approved text holds the old or the new value); empty when none.
 */
export function factChanges(then: Facts | undefined, now: Facts, pageText: string): string[] {
  if (!then) return [];
  return MATERIAL_FACTS.flatMap(({ key, label }) => {
    const [was, is] = [then[key], now[key]];
    if (was === undefined || is === undefined || was === is) return [];
    if (!pageText.includes(was) && !pageText.includes(is)) return [];
    return [`${label} changed (${was} → ${is})`];
  });
}
