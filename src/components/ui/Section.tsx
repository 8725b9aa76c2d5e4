import type { ReactNode } from "react";
import { cn } from "@/shared/cn";
import { Container } from "./Container";

type Tone = "light" | "tint" | "dark";

const tones: Record<Tone, string> = {
  light: "bg-paper text-ink",
  tint: "bg-surface text-ink",
  dark: "on-dark bg-ink-950 text-on-dark",
};

/** Owns a landing section's anchor, spacing, surface and container, so every section has the same rhythm. */
export function Section({
  id,
  tone = "light",
  labelledBy,
  children,
  className,
}: {
  id: string;
  tone?: Tone;
  labelledBy: string;
  children: ReactNode;
  className?: string;
}) {
  return (
    <section id={id} aria-labelledby={labelledBy} className={cn(tones[tone], "py-16 md:py-24 lg:py-28", className)}>
      <Container>{children}</Container>
    </section>
  );
}

/** Eyebrow, h2 and lede of a section. */
export function SectionHeading({
  id,
  eyebrow,
  heading,
  lede,
  dark = false,
}: {
  id: string;
  eyebrow: string;
  heading: string;
  lede: string;
  dark?: boolean;
}) {
  return (
    <div className="max-w-3xl">
      <p className={cn("text-sm font-semibold tracking-wide uppercase", dark ? "text-accent" : "text-accent-strong")}>{eyebrow}</p>
      <h2 id={id} className="mt-3 text-3xl font-semibold tracking-tight text-balance md:text-4xl">
        {heading}
      </h2>
      <p className={cn("mt-4 text-lg leading-relaxed", dark ? "text-muted-on-dark" : "text-muted")}>{lede}</p>
    </div>
  );
}
