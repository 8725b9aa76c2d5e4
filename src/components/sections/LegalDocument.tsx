import { TriangleAlert } from "lucide";
import { SvgIcon } from "@/components/ui/SvgIcon";

export interface LegalDocumentProps {
  title: string;
  /** "January 2025" (src/build/legal.ts formats the front matter's date). */
  lastUpdated: string;
  /** "November 2026": when a principal last reviewed the page (drawn from the review records, never typed); absent in the studio's preview pane. */
  lastReviewed?: string | undefined;
  warning?: string | undefined;
  /** The document's h2 sections, for the contents list. */
  toc: ReadonlyArray<{ slug: string; text: string }>;
  /** The contents list's heading (and its navigation landmark's name). */
  tocTitle?: string;
  /** The text, rendered from Markdown by src/build/markdown/processor.ts. */
  html: string;
}

/**
 * A long document (the legal pages, Business Continuity): title, date, optional warning, contents and
 * text, styled by legal.css. The page (src/layouts/LegalLayout.astro) and the content studio's preview
 * pane render this one component.
 */
export function LegalDocument({ title, lastUpdated, lastReviewed, warning, toc, tocTitle = "On this page", html }: LegalDocumentProps) {
  return (
    <article className="legal mx-auto w-full max-w-[75rem] px-4 py-12 sm:px-6 md:py-16 lg:px-8">
      <header className="legal-head">
        <h1 className="text-3xl font-semibold tracking-tight md:text-4xl">{title}</h1>
        <div className="text-muted mt-3 flex flex-wrap gap-x-6 gap-y-1">
          <p>{`Last updated: ${lastUpdated}`}</p>
          {lastReviewed && <p>{`Last reviewed: ${lastReviewed}`}</p>}
        </div>
      </header>
      {warning && (
        <div role="note" aria-label="Risk warning" className="legal-warning mt-8 flex gap-3 rounded-xl border p-4">
          <SvgIcon node={TriangleAlert} className="mt-0.5 size-5 shrink-0" />
          <p className="leading-relaxed font-medium">{warning}</p>
        </div>
      )}
      <nav aria-labelledby="toc-title" className="legal-toc border-line bg-surface mt-8 rounded-xl border p-5" data-legal-toc="">
        <h2 id="toc-title" className="text-muted text-sm font-semibold tracking-wide uppercase">
          {tocTitle}
        </h2>
        <ol className="mt-3 flex flex-col gap-1.5">
          {toc.map((item) => (
            <li key={item.slug}>
              <a href={`#${item.slug}`} className="text-accent-strong underline-offset-2 hover:underline">
                {item.text}
              </a>
            </li>
          ))}
        </ol>
      </nav>
      <div className="prose-legal mt-4" dangerouslySetInnerHTML={{ __html: html }} />
    </article>
  );
}
