/** "January 2025" from a date, in UTC so the build machine's time zone cannot shift the month. */
export function formatLastUpdated(date: Date): string {
  return new Intl.DateTimeFormat("en-US", { month: "long", year: "numeric", timeZone: "UTC" }).format(date);
}

/** Throws, naming the file and field, when the body's "## " headings differ from front matter `sections`. */
export function assertSectionsMatch(file: string, declared: string[], bodyHeadings: string[]): void {
  const same = declared.length === bodyHeadings.length && declared.every((heading, i) => heading === bodyHeadings[i]);
  if (!same) {
    throw new Error(
      `${file}: field "sections" does not match the body's "## " headings.\n` +
        `  sections: ${JSON.stringify(declared)}\n  body:     ${JSON.stringify(bodyHeadings)}`,
    );
  }
}
