import type { WhyUsCopy } from "@/content/schemas/landing";
import { Card } from "@/components/ui/Card";
import { Section, SectionHeading } from "@/components/ui/Section";

/** #why-us: four reasons institutions choose the provider. */
export function WhyUs({ copy }: { copy: WhyUsCopy }) {
  return (
    <Section id="why-us" tone="dark" labelledBy="why-us-title">
      <SectionHeading id="why-us-title" eyebrow={copy.eyebrow} heading={copy.heading} lede={copy.lede} dark />
      <div className="mt-12 grid gap-5 sm:grid-cols-2">
        {copy.cards.map((card) => (
          <Card key={card.title} card={card} dark />
        ))}
      </div>
    </Section>
  );
}
