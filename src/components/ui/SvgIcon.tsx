import { createElement } from "react";
import { cn } from "@/shared/cn";

export type { IconNode } from "lucide";
import type { IconNode } from "lucide";

/** Draws lucide icon data as a decorative inline SVG (no icon runtime in the browser bundle). */
export function SvgIcon({ node, className }: { node: IconNode; className?: string }) {
  return (
    // Inline in HTML: no xmlns needed, and focusable="false" only ever mattered to Internet Explorer. The
    // stroke is the `icon` utility's (global.css): written once, not on each of a page's twenty-odd icons.
    <svg viewBox="0 0 24 24" aria-hidden="true" className={cn("icon", className)}>
      {node.map(([tag, attrs], index) => createElement(tag, { ...attrs, key: index }))}
    </svg>
  );
}
