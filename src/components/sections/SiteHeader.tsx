import type { ReactNode } from "react";
import { BRAND_COLORS, BRAND_MARK_PATH, BRAND_MARK_STROKE_WIDTH } from "@/shared/brand";

export interface SiteHeaderProps {
  brandName: string;
  /** On "/" the section links show; elsewhere a Home link. */
  isHome: boolean;
  /** The status dot island, on "/" only. */
  children?: ReactNode;
}

const navLinks = [
  { href: "#introduction", label: "About" },
  { href: "#features", label: "Features" },
  { href: "#contact", label: "Contact" },
];

const linkClass =
  "inline-flex min-h-11 items-center rounded-md px-1.5 text-sm font-medium text-muted-on-dark transition-tint hover:text-on-dark sm:px-3";

/**
 * The header, sticky where it fits (global.css). Rendered at build time; its scrolled style (past 50 px)
 * is set on data-scrolled by the inline head script (src/client/head/header.ts), so it needs no bundle.
 */
export function SiteHeader({ brandName, isHome, children }: SiteHeaderProps) {
  return (
    <header
      data-scrolled="false"
      className="on-dark text-on-dark bg-ink-950 min-h-header data-[scrolled=true]:border-line-dark data-[scrolled=true]:shadow-raised transition-edge top-0 z-40 flex border-b border-transparent"
    >
      {/* Wraps rather than pushing the status dot off screen (WCAG 1.4.12 text spacing at 320 px); its row is the header's height. */}
      <div className="mx-auto flex w-full max-w-[75rem] flex-wrap items-center justify-between gap-x-2 px-4 sm:px-6 lg:px-8">
        <a
          href="/"
          className="flex min-h-11 items-center gap-2.5 rounded-md font-semibold tracking-tight"
          aria-label={`${brandName}, home`}
        >
          <svg viewBox="0 0 32 32" aria-hidden="true" className="size-8 shrink-0">
            <rect width="32" height="32" rx="8" fill={BRAND_COLORS.ink900} />
            <path
              d={BRAND_MARK_PATH}
              fill="none"
              stroke={BRAND_COLORS.accent}
              strokeWidth={BRAND_MARK_STROKE_WIDTH}
              strokeLinecap="round"
              strokeLinejoin="round"
            />
          </svg>
          <span className="hidden text-lg sm:inline">{brandName}</span>
        </a>
        <nav aria-label="Main" className="flex flex-wrap items-center gap-0.5 sm:gap-2">
          {isHome ? (
            navLinks.map((link) => (
              <a key={link.href} href={link.href} className={linkClass}>
                {link.label}
              </a>
            ))
          ) : (
            <a href="/" className={linkClass}>
              Home
            </a>
          )}
          {children}
        </nav>
      </div>
    </header>
  );
}
