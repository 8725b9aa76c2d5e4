export interface WithdrawnNoticeProps {
  title: string;
  /** "December 1, 2026" (src/build/legal.ts formats the front matter's date). */
  withdrawnOn: string;
  /** The disclosures index's path. */
  indexHref: string;
}

/**
 * What a withdrawn disclosure's address answers: its title, the day it was withdrawn, and the way to the
 * disclosures in force. The text it had stays in the file's history and in earlier captures. The page
 * (src/pages/[document].astro) and the content studio's preview pane render this one component.
 */
export function WithdrawnNotice({ title, withdrawnOn, indexHref }: WithdrawnNoticeProps) {
  return (
    <div className="mx-auto w-full max-w-[75rem] px-4 py-12 sm:px-6 md:py-16 lg:px-8">
      <div className="max-w-3xl">
        <h1 className="text-3xl font-semibold tracking-tight md:text-4xl">{title}</h1>
        <p className="mt-4 text-xl leading-relaxed">{`This disclosure was withdrawn on ${withdrawnOn}. It no longer applies.`}</p>
        <a
          href={indexHref}
          className="bg-accent-strong hover:bg-accent-strong-hover mt-8 inline-flex min-h-11 items-center rounded-lg border border-transparent px-5 font-semibold text-white"
        >
          See the disclosures in force
        </a>
      </div>
    </div>
  );
}
