import type { ReactNode } from "react";
import type { ContactCopy } from "@/content/schemas/landing";
import { Icon } from "@/components/ui/icons/Icon";
import { Section, SectionHeading } from "@/components/ui/Section";

/** #contact: the business-development e-mail and, as children, the embedded form island. */
export function Contact({ copy, email, children }: { copy: ContactCopy; email: string; children?: ReactNode }) {
  return (
    <Section id="contact" tone="tint" labelledBy="contact-title">
      <div className="grid gap-10 lg:grid-cols-[2fr_3fr] lg:gap-16">
        <div>
          <SectionHeading id="contact-title" eyebrow={copy.eyebrow} heading={copy.heading} lede={copy.lede} />
          <div className="border-line bg-paper mt-8 flex items-start gap-3 rounded-2xl border p-5">
            <Icon name="mail" className="text-accent-strong mt-0.5 size-5 shrink-0" />
            <p className="min-w-0">
              <span className="text-muted block text-sm">{copy.emailLabel}</span>
              <a href={`mailto:${email}`} className="text-accent-strong font-semibold break-all underline underline-offset-2">
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
