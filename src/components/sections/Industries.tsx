import type { IndustriesCopy } from "@/content/schemas/landing";
import { Card } from "@/components/ui/Card";
import { Section, SectionHeading } from "@/components/ui/Section";

/** #industries: eight industry taglines and the three solution cards. */
export function Industries({ copy }: { copy: IndustriesCopy }) {
  return (
    <Section id="industries" tone="tint" labelledBy="industries-title">
      <SectionHeading id="industries-title" eyebrow={copy.eyebrow} heading={copy.heading} lede={copy.lede} />
      <ul className="border-line bg-line mt-12 grid gap-px overflow-hidden rounded-2xl border sm:grid-cols-2 lg:grid-cols-4">
        {copy.taglines.map((item) => (
          <li key={item.industry} className="bg-paper p-5">
            <h3 className="font-semibold">{item.industry}</h3>
            <p className="text-muted mt-1.5 text-sm leading-relaxed">{item.tagline}</p>
          </li>
        ))}
      </ul>
      <div className="mt-10 grid gap-5 md:grid-cols-3">
        {copy.cards.map((card) => (
          <Card key={card.title} card={card} />
        ))}
      </div>
    </Section>
  );
}
