import type { ReactNode } from "react";
import type { ContactCopy } from "@/content/schemas/landing";
import { Icon } from "@/components/ui/Icon";
import { Section, SectionHeading } from "@/components/ui/Section";

/** #contact: the business-development e-mail and, as children, the embedded form island. */
export function Contact({ copy, email, children }: { copy: ContactCopy; email: string; children?: ReactNode }) {
  return (
    <Section id="contact" tone="tint" labelledBy="contact-title">
      <div className="grid gap-10 lg:grid-cols-[2fr_3fr] lg:gap-16">
        <div>
          <SectionHeading id="contact-title" eyebrow={copy.eyebrow} heading={copy.heading} lede={copy.lede} />
          <div className="mt-8 flex items-start gap-3 rounded-2xl border border-line bg-paper p-5">
            <Icon name="mail" className="mt-0.5 size-5 shrink-0 text-accent-strong" />
            <p className="min-w-0">
              <span className="block text-sm text-muted">{copy.emailLabel}</span>
              <a href={`mailto:${email}`} className="font-semibold break-all text-accent-strong underline underline-offset-2">
                {email}
              </a>
            </p>
          </div>
        </div>
        <div>
          <h3 className="mb-4 text-xl font-semibold">{copy.formTitle}</h3>
          {children}
        </div>
      </div>
    </Section>
  );
}
