export interface DisclosureItem {
  href: string;
  title: string;
  /** "November 2026" (src/build/legal.ts formats the front matter's date). */
  lastUpdated: string;
  /** The disclosure's description: its one line here. */
  line: string;
}

/**
 * The disclosures index (/disclosures): every disclosure in force, with its date and one line. Only
 * classes other pages already use, so the stylesheet every page inlines does not grow.
 */
export function DisclosuresIndex({ title, intro, items }: { title: string; intro: string; items: readonly DisclosureItem[] }) {
  return (
    <div className="mx-auto w-full max-w-[75rem] px-4 py-12 sm:px-6 md:py-16 lg:px-8">
      <div className="max-w-3xl">
        <h1 className="text-3xl font-semibold tracking-tight md:text-4xl">{title}</h1>
        <p className="text-muted mt-3 leading-relaxed">{intro}</p>
        <ul id="disclosures-list" className="mt-8 flex flex-col gap-4">
          {items.map((item) => (
            <li key={item.href} className="border-line bg-surface rounded-xl border p-5">
              <h2 className="text-lg font-semibold">
                <a href={item.href} className="text-accent-strong underline-offset-2 hover:underline">
                  {item.title}
                </a>
              </h2>
              <p className="text-muted mt-1 text-sm">{`Last updated: ${item.lastUpdated}`}</p>
              <p className="mt-2 leading-relaxed">{item.line}</p>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
