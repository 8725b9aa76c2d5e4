import type { Element, ElementContent } from "hast";
import type { Options } from "rehype-autolink-headings";

function textOf(node: Readonly<ElementContent> | Readonly<Element>): string {
  if (node.type === "text") return node.value;
  if (node.type === "element") return node.children.map(textOf).join("");
  return "";
}

/**
 * rehype-autolink-headings options for the legal pages: every h2 gets a visible "#" link to itself,
 * placed after the heading (so the heading's own name stays clean) and grouped with it for layout.
 * The link's accessible name says where it points: "Link to section: 1. Market Risk".
 */
export const headingLinkOptions: Options = {
  behavior: "after",
  test: "h2",
  group: { type: "element", tagName: "div", properties: { className: ["heading-group"] }, children: [] },
  properties: (heading) => ({ className: ["heading-link"], ariaLabel: `Link to section: ${textOf(heading).trim()}` }),
  content: { type: "element", tagName: "span", properties: { ariaHidden: "true" }, children: [{ type: "text", value: "#" }] },
};
