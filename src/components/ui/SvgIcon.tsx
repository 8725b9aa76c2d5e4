import { createElement } from "react";

export type { IconNode } from "lucide";
import type { IconNode } from "lucide";

/** Draws lucide icon data as a decorative inline SVG (no icon runtime in the browser bundle). */
export function SvgIcon({ node, className }: { node: IconNode; className?: string }) {
  return (
    // Inline in HTML: no xmlns needed, and focusable="false" only ever mattered to Internet Explorer.
    <svg
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.75}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      className={className}
    >
      {node.map(([tag, attrs], index) => createElement(tag, { ...attrs, key: index }))}
    </svg>
  );
}
