import type { FeaturesCopy } from "@/content/schemas/landing";
import { Card } from "@/components/ui/Card";
import { Section, SectionHeading } from "@/components/ui/Section";
import type { ReactNode } from "react";

/** #features: four capability cards, then the highlights island (children, hydrated for its tooltips). */
export function Features({ copy, children }: { copy: FeaturesCopy; children?: ReactNode }) {
  return (
    <Section id="features" labelledBy="features-title">
      <SectionHeading id="features-title" eyebrow={copy.eyebrow} heading={copy.heading} lede={copy.lede} />
      <div className="mt-12 grid gap-5 sm:grid-cols-2 lg:grid-cols-4">
        {copy.capabilities.map((card) => (
          <Card key={card.title} card={card} />
        ))}
      </div>
      {children}
    </Section>
  );
}
