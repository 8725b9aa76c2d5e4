import type { ReactNode } from "react";

/** A link to another site: new tab, no opener, no referrer. The hidden hint tells screen readers it opens a new tab. */
export function ExternalLink({ href, children, className }: { href: string; children: ReactNode; className?: string }) {
  return (
    <a href={href} target="_blank" rel="noopener noreferrer" className={className}>
      {children}
      <span className="sr-only"> (opens in a new tab)</span>
    </a>
  );
}
