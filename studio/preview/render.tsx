/**
 * The preview pane's pages: the entry being edited, rendered by the site's own components (the sections,
 * the popup, the document layout) and the site's Markdown processor, to static HTML as the build renders
 * it. Bundled for Node by esbuild when the studio starts (studio/preview/index.ts); it is not part of the
 * public build. Copy the build would refuse is not drawn: the answer names the fields instead.
 */
import type { ReactElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { DOCUMENT_COLLECTIONS, LANDING_FILES, LANDING_FOLDER } from "@/content/schemas/files";
import type { ContactCopy, FeaturesCopy, HeroCopy, IndustriesCopy, PopupCopy, StatusCopy, WhyUsCopy } from "@/content/schemas/landing";
import { site } from "@/config/site";
import { Hero } from "@/components/sections/Hero";
import { Features } from "@/components/sections/Features";
import { Industries } from "@/components/sections/Industries";
import { WhyUs } from "@/components/sections/WhyUs";
import { Contact } from "@/components/sections/Contact";
import { LegalDocument } from "@/components/sections/LegalDocument";
import { WithdrawnNotice } from "@/components/sections/WithdrawnNotice";
import { Highlights } from "@/components/islands/tooltips/Highlights";
import { ContactFormEmbed } from "@/components/islands/ContactForm/ContactFormEmbed";
import { UnderDevelopmentPopup } from "@/components/sections/UnderDevelopmentPopup";
import { describeStatus } from "@/components/islands/tooltips/status";
import { siteMarkdown } from "@/build/markdown/processor";
import { markdownFileProblems } from "@/build/markdown/content-rules";
import { formatDay, formatLastUpdated } from "@/build/legal";
import { DISCLOSURES_INDEX } from "@/build/documents";
import { contactFormProps } from "@/build/contact-form";

export type PreviewAnswer = { html: string } | { problems: string[] };

const landing: { [K in keyof typeof LANDING_FILES]: (copy: never, file: string) => ReactElement } = {
  hero: (copy: HeroCopy) => <Hero copy={copy} site={site} />,
  features: (copy: FeaturesCopy) => (
    <Features copy={copy}>
      <Highlights highlights={copy.highlights} />
    </Features>
  ),
  industries: (copy: IndustriesCopy) => <Industries copy={copy} />,
  whyUs: (copy: WhyUsCopy) => <WhyUs copy={copy} />,
  contact: (copy: ContactCopy, file: string) => (
    <Contact copy={copy} email={site.businessEmail}>
      <ContactFormEmbed {...contactFormProps(copy, file)} />
    </Contact>
  ),
  popup: (copy: PopupCopy) => <UnderDevelopmentPopup copy={copy} />,
  // The dot's words are a tooltip: each thing it can say, as the header's dot says it.
  status: (copy: StatusCopy) => {
    const host = site.statusUrl ? new URL(site.statusUrl).host : "status.example.com";
    const withPage = { checking: copy.checking, reported: copy.reported, unavailable: copy.unavailable };
    const here = (configured: boolean) => (configured === Boolean(site.statusUrl) ? " (this site)" : "");
    const said = [
      [`Without a status page${here(false)}`, describeStatus({ kind: "unconfigured" }, "", { unconfigured: copy.unconfigured }).text],
      [`With a status page${here(true)}: checking`, describeStatus({ kind: "checking" }, host, withPage).text],
      [
        `With a status page${here(true)}: its answer`,
        describeStatus({ kind: "reported", indicator: "none", description: "<the status page's own words>" }, host, withPage).text,
      ],
      [`With a status page${here(true)}: no answer`, describeStatus({ kind: "unavailable" }, host, withPage).text],
    ];
    return (
      <section className="mx-auto max-w-2xl p-6">
        <h2 className="text-lg font-semibold">{`${copy.buttonLabel}: what the dot's tooltip says`}</h2>
        <dl className="mt-4 flex flex-col gap-3">
          {said.map(([when, text]) => (
            <div key={when} className="border-line bg-surface rounded-xl border p-4">
              <dt className="text-muted text-sm">{when}</dt>
              <dd className="mt-1 font-medium">{text}</dd>
            </div>
          ))}
        </dl>
      </section>
    );
  },
};

/** "title: Too small: expected string to have >=1 characters" for each field the schema refuses. */
function problemsOf(error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> }): string[] {
  return error.issues.map((issue) => `${issue.path.map(String).join(".") || "(entry)"}: ${issue.message}`);
}

/** One landing file's preview (`name` is its key in LANDING_FILES: hero, features…). */
export function renderLanding(name: string, data: unknown): PreviewAnswer {
  if (!Object.hasOwn(LANDING_FILES, name)) return { problems: [`no landing file named "${name}"`] };
  const key = name as keyof typeof LANDING_FILES;
  const file = `${LANDING_FOLDER}/${LANDING_FILES[key].file}`;
  const parsed = LANDING_FILES[key].schema.safeParse(data);
  if (!parsed.success) return { problems: problemsOf(parsed.error) };
  const draw = landing[key] as (copy: unknown, file: string) => ReactElement;
  return { html: renderToStaticMarkup(draw(parsed.data, file)) };
}

let markdown: ReturnType<typeof siteMarkdown.createRenderer> | undefined;

/** One document's preview (`collection`: legal or disclosures), its text rendered as the build renders it. */
export async function renderDocument(
  collection: string,
  slug: string,
  data: unknown,
  body: string,
  /** The day the ledger last records a review of the page (YYYY-MM-DD); its "Last updated" when none. */
  reviewedOn?: string,
): Promise<PreviewAnswer> {
  if (!Object.hasOwn(DOCUMENT_COLLECTIONS, collection)) return { problems: [`no document collection named "${collection}"`] };
  const { folder, schema } = DOCUMENT_COLLECTIONS[collection as keyof typeof DOCUMENT_COLLECTIONS];
  const parsed = schema.safeParse(data);
  if (!parsed.success) return { problems: problemsOf(parsed.error) };
  // A withdrawn disclosure: the notice its address will answer.
  if ("withdrawn" in parsed.data && parsed.data.withdrawn instanceof Date)
    return {
      html: renderToStaticMarkup(
        <WithdrawnNotice title={parsed.data.title} withdrawnOn={formatDay(parsed.data.withdrawn)} indexHref={DISCLOSURES_INDEX} />,
      ),
    };
  markdown ??= siteMarkdown.createRenderer({ syntaxHighlight: false });
  const file = `${folder}/${slug.replace(/[^\w-]/g, "") || "entry"}.md`;
  // Raw HTML and unsafe links: the build's sentences, lines counted in the text (the processor would refuse them too, logging each).
  const refused = markdownFileProblems(body, `${file} (its text)`);
  if (refused.length > 0) return { problems: refused.map((problem) => `body: ${problem}`) };
  try {
    const { code, metadata } = await (await markdown).render(body, { fileURL: new URL(`file:///${file}`) });
    const toc = metadata.headings.filter((heading) => heading.depth === 2);
    const front = parsed.data;
    return {
      html: renderToStaticMarkup(
        <LegalDocument
          title={front.title}
          lastUpdated={formatLastUpdated(front.lastUpdated)}
          lastReviewed={formatLastUpdated(reviewedOn ?? front.lastUpdated)}
          warning={"warning" in front && typeof front.warning === "string" ? front.warning : undefined}
          toc={toc}
          html={code}
        />,
      ),
    };
  } catch (error) {
    return { problems: [`body: ${error instanceof Error ? error.message : String(error)}`] };
  }
}
