import type { HeroCopy } from "@/content/schemas/landing";
import type { SiteConfig } from "@/config/site";
import { ButtonLink } from "@/components/ui/ButtonLink";
import { Container } from "@/components/ui/Container";
import { Icon } from "@/components/ui/icons/Icon";
import { ExternalLink } from "@/components/ui/ExternalLink";
import { SettlementFigure } from "./SettlementFigure/SettlementFigure";

/** #introduction: the headline, the two jump buttons, the net-settlement drawing, the three value cards and the ATS notice. */
export function Hero({ copy, site }: { copy: HeroCopy; site: SiteConfig }) {
  return (
    <section id="introduction" aria-labelledby="introduction-title" className="on-dark hero-grid bg-ink-950 text-on-dark">
      <Container className="pt-14 pb-16 md:pt-24 md:pb-24">
        <div className="items-center lg:grid lg:grid-cols-[3fr_2fr] lg:gap-16">
          <div>
            <p className="border-line-dark bg-ink-900 text-muted-on-dark inline-flex rounded-full border px-3 py-1 text-sm">
              {copy.eyebrow}
            </p>
            <h1
              id="introduction-title"
              className="mt-6 max-w-4xl text-4xl leading-[1.1] font-semibold tracking-tight text-balance sm:text-5xl"
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
          </div>
          <SettlementFigure copy={copy.settlement} className="hidden lg:block" />
        </div>
        {/* Cards in ink-900 at 80 % as one colour: the token with an opacity modifier adds a color-mix() fallback to the first-paint CSS. */}
        <ul className="mt-12 grid gap-4 md:grid-cols-3" aria-label="Why clients trust us">
          {copy.valueCards.map((card) => (
            <li key={card.title} className="border-line-dark rounded-2xl border bg-[#111f36cc] p-5">
              <div className="flex items-center gap-3">
                <Icon name={card.icon} className="text-accent size-5 shrink-0" />
                <p className="text-base font-semibold">{card.title}</p>
              </div>
              <p className="text-muted-on-dark mt-2 text-sm leading-relaxed">{card.body}</p>
            </li>
          ))}
        </ul>
        <p className="text-muted-on-dark mt-8 max-w-3xl text-sm leading-relaxed">
          {/* Whole strings, not adjacent text nodes: React separates those with <!-- --> in the HTML. */}
          {`${copy.atsNotice} ${site.brokerDealerName} is a member of `}
          <ExternalLink href="https://www.finra.org" className="hover:text-on-dark underline underline-offset-2">
            FINRA
          </ExternalLink>
          {" and "}
          <ExternalLink href="https://www.sipc.org" className="hover:text-on-dark underline underline-offset-2">
            SIPC
          </ExternalLink>
          {"; check its background on "}
          <ExternalLink href={site.brokerCheckUrl} className="hover:text-on-dark underline underline-offset-2">
            FINRA BrokerCheck
          </ExternalLink>
          .
        </p>
      </Container>
    </section>
  );
}
