import type { SiteConfig } from "@/config/site";
import { Container } from "@/components/ui/Container";
import { ExternalLink } from "@/components/ui/ExternalLink";
import { COPYRIGHT_YEAR } from "@/shared/constants";
import { CONSENT_ACTIONS } from "@/shared/consent";

export interface FooterLink {
  href: string;
  label: string;
}

const linkClass = "underline-offset-2 hover:text-on-dark hover:underline";

/** Every page: legal links, the two companies, broker-dealer disclosures, risk warning, copyright. */
export function Footer({ site, legalLinks }: { site: SiteConfig; legalLinks: FooterLink[] }) {
  return (
    <footer className="on-dark border-line-dark bg-ink-950 text-muted-on-dark border-t text-sm">
      <Container className="py-12 md:py-16">
        <div className="grid gap-10 md:grid-cols-[3fr_2fr]">
          <div className="flex flex-col gap-4 leading-relaxed">
            <p className="text-on-dark text-base font-semibold">{site.brandName}</p>
            <p>
              <ExternalLink href={site.developerUrl} className={`${linkClass} text-on-dark font-medium`}>
                {site.developerName}
              </ExternalLink>
              {/* Whole strings, not adjacent text nodes: React separates those with <!-- --> in the HTML. */}
              {
                " develops and licenses the trading, tokenization, net-settling and clearing technology behind the platform. It is not a broker-dealer and is not itself a member of FINRA or SIPC."
              }
            </p>
            <p>
              {"Securities services, including the regulated alternative trading system (ATS), are offered only by "}
              <span className="text-on-dark font-medium">{site.brokerDealerName}</span>
              {` (CRD #${site.brokerDealerCrd}), a registered broker-dealer, Member `}
              <ExternalLink href="https://www.finra.org" className={`${linkClass} underline`}>
                FINRA
              </ExternalLink>
              {" / "}
              <ExternalLink href="https://www.sipc.org" className={`${linkClass} underline`}>
                SIPC
              </ExternalLink>
              {". Check the background of the firm on "}
              <ExternalLink href={site.brokerCheckUrl} className={`${linkClass} underline`}>
                FINRA BrokerCheck
              </ExternalLink>
              .
            </p>
          </div>
          <nav aria-label="Legal">
            <p className="text-on-dark font-semibold">Legal</p>
            <ul className="mt-3 flex flex-col gap-1">
              {legalLinks.map((link) => (
                <li key={link.href}>
                  <a href={link.href} className={`${linkClass} inline-flex min-h-8 items-center`}>
                    {link.label}
                  </a>
                </li>
              ))}
              <li data-consent-reopen-item>
                <button
                  type="button"
                  data-consent-action={CONSENT_ACTIONS.reopen}
                  className={`${linkClass} inline-flex min-h-8 items-center`}
                >
                  Cookie settings
                </button>
              </li>
            </ul>
          </nav>
        </div>
        <div className="border-line-dark mt-10 flex flex-col gap-3 border-t pt-8 text-xs leading-relaxed">
          <p className="text-on-dark font-semibold">For institutional investors only; not an offer or solicitation.</p>
          <p>
            {
              "Digital assets are highly volatile and may lose all of their value. Past performance does not guarantee future results. Digital assets that are not securities registered with the SEC are not protected by SIPC, and SIPC does not protect against losses in value. Read our "
            }
            <a href="/risk-disclosures" className="hover:text-on-dark underline underline-offset-2">
              Risk Disclosures
            </a>
            {" before engaging any service."}
          </p>
          <p>{`© ${COPYRIGHT_YEAR} ${site.developerName} and ${site.brokerDealerName}. All rights reserved.`}</p>
        </div>
      </Container>
    </footer>
  );
}
