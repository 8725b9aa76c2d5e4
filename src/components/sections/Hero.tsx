import type { HeroCopy } from "@/content/schemas/landing";
import type { SiteConfig } from "@/config/site";
import { ButtonLink } from "@/components/ui/ButtonLink";
import { Container } from "@/components/ui/Container";
import { Icon } from "@/components/ui/Icon";
import { ExternalLink } from "@/components/ui/ExternalLink";

/** #introduction: the headline, the three value cards, the two jump buttons and the ATS notice. */
export function Hero({ copy, site }: { copy: HeroCopy; site: SiteConfig }) {
  return (
    <section id="introduction" aria-labelledby="introduction-title" className="on-dark bg-ink-950 text-on-dark relative overflow-hidden">
      <svg aria-hidden="true" className="text-line-dark pointer-events-none absolute inset-0 h-full w-full opacity-60">
        <defs>
          <pattern id="hero-grid" width="48" height="48" patternUnits="userSpaceOnUse">
            <path d="M48 0H0v48" fill="none" stroke="currentColor" strokeWidth="1" />
          </pattern>
        </defs>
        <rect width="100%" height="100%" fill="url(#hero-grid)" />
      </svg>
      <Container className="relative pt-14 pb-16 md:pt-24 md:pb-24">
        <p className="border-line-dark bg-ink-900 text-muted-on-dark inline-flex rounded-full border px-3 py-1 text-sm">{copy.eyebrow}</p>
        <h1
          id="introduction-title"
          className="mt-6 max-w-4xl text-4xl leading-[1.1] font-semibold tracking-tight text-balance sm:text-5xl lg:text-6xl"
        >
          {copy.headline}
        </h1>
        <p className="text-muted-on-dark mt-6 max-w-2xl text-lg leading-relaxed">{copy.lede}</p>
        <div className="mt-8 flex flex-col gap-3 sm:flex-row">
          <ButtonLink href="#features">{copy.exploreLabel}</ButtonLink>
          <ButtonLink href="#contact" variant="secondary">
            {copy.partnerLabel}
          </ButtonLink>
        </div>
        <ul className="mt-12 grid gap-4 md:grid-cols-3" aria-label="Why clients trust us">
          {copy.valueCards.map((card) => (
            <li key={card.title} className="border-line-dark bg-ink-900/80 rounded-2xl border p-5">
              <div className="flex items-center gap-3">
                <Icon name={card.icon} className="text-accent size-5 shrink-0" />
                <p className="text-base font-semibold">{card.title}</p>
              </div>
              <p className="text-muted-on-dark mt-2 text-sm leading-relaxed">{card.body}</p>
            </li>
          ))}
        </ul>
        <p className="text-muted-on-dark mt-8 max-w-3xl text-sm leading-relaxed">
          {copy.atsNotice} {site.brokerDealerName} is a member of{" "}
          <ExternalLink href="https://www.finra.org" className="hover:text-on-dark underline underline-offset-2">
            FINRA
          </ExternalLink>{" "}
          and{" "}
          <ExternalLink href="https://www.sipc.org" className="hover:text-on-dark underline underline-offset-2">
            SIPC
          </ExternalLink>
          ; check its background on{" "}
          <ExternalLink href={site.brokerCheckUrl} className="hover:text-on-dark underline underline-offset-2">
            FINRA BrokerCheck
          </ExternalLink>
          .
        </p>
      </Container>
    </section>
  );
}
