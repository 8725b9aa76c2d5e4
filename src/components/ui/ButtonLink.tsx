import type { ReactNode } from "react";
import { cn } from "@/shared/cn";

type Variant = "primary" | "secondary" | "primaryLight";

const variants: Record<Variant, string> = {
  // The transparent border is the button's edge in Windows high-contrast mode, where backgrounds are replaced.
  primary: "border border-transparent bg-accent text-ink-950 hover:bg-[#6ee7b7]",
  secondary: "border border-line-dark text-on-dark hover:bg-ink-800",
  primaryLight: "border border-transparent bg-accent-strong text-white hover:bg-accent-strong-hover",
};

/** A link styled as a button (navigation, so it stays a link and works without JavaScript). */
export function ButtonLink({
  href,
  variant = "primary",
  children,
  className,
}: {
  href: string;
  variant?: Variant;
  children: ReactNode;
  className?: string;
}) {
  return (
    <a
      href={href}
      className={cn(
        "transition-tint inline-flex min-h-11 items-center justify-center gap-2 rounded-lg px-5 py-2.5 text-base font-semibold",
        variants[variant],
        className,
      )}
    >
      {children}
    </a>
  );
}
