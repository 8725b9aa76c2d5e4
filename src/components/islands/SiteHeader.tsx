import { useEffect, useState } from "react";
import { cn } from "@/lib/cn";
import { isScrolled } from "@/lib/header";
import { IslandBoundary } from "./IslandBoundary";
import { Tip, TipProvider } from "./Tip";

export interface SiteHeaderProps {
  brandName: string;
  /** On "/" the section links show; elsewhere a Home link. */
  isHome: boolean;
  statusText: string;
}

const navLinks = [
  { href: "#introduction", label: "About" },
  { href: "#features", label: "Features" },
  { href: "#contact", label: "Contact" },
];

const linkClass =
  "inline-flex min-h-11 items-center rounded-md px-2 text-sm font-medium text-muted-on-dark transition-colors hover:text-on-dark sm:px-3";

function Header({ brandName, isHome, statusText }: SiteHeaderProps) {
  // Rendered "false" at build; the first effect corrects it when the page was already scrolled.
  const [scrolled, setScrolled] = useState(false);

  useEffect(() => {
    const update = () => setScrolled(isScrolled(window.scrollY));
    update();
    window.addEventListener("scroll", update, { passive: true });
    return () => window.removeEventListener("scroll", update);
  }, []);

  return (
    <header
      data-scrolled={String(scrolled)}
      className={cn(
        "on-dark h-header text-on-dark sticky top-0 z-40 border-b transition-[background-color,border-color,box-shadow] duration-200",
        scrolled ? "border-line-dark bg-ink-950 shadow-raised" : "bg-ink-950 border-transparent",
      )}
    >
      <div className="mx-auto flex h-full w-full max-w-[75rem] items-center justify-between gap-2 px-4 sm:px-6 lg:px-8">
        <a
          href="/"
          className="flex min-h-11 items-center gap-2.5 rounded-md font-semibold tracking-tight"
          aria-label={`${brandName}, home`}
        >
          <svg viewBox="0 0 32 32" aria-hidden="true" className="size-8 shrink-0">
            <rect width="32" height="32" rx="8" fill="#111F36" />
            <path d="M8 22V10l8 7 8-7v12" fill="none" stroke="#34D399" strokeWidth="2.5" strokeLinecap="round" strokeLinejoin="round" />
          </svg>
          <span className="hidden text-lg sm:inline">{brandName}</span>
        </a>
        <nav aria-label="Main" className="flex items-center gap-1 sm:gap-2">
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
          {isHome && (
            <TipProvider className="flex">
              <Tip id="status-dot" content={statusText}>
                <button type="button" aria-label="Platform status" className="inline-flex size-11 items-center justify-center rounded-full">
                  <span className="status-dot animate-pulse-dot bg-accent size-2.5 rounded-full" />
                </button>
              </Tip>
            </TipProvider>
          )}
        </nav>
      </div>
    </header>
  );
}

export function SiteHeader(props: SiteHeaderProps) {
  return (
    <IslandBoundary name="SiteHeader">
      <Header {...props} />
    </IslandBoundary>
  );
}
