/** Adds the configured analytics script once. Callers decide consent first (see mayLoadAnalytics). */
export function loadAnalytics(doc: Document, src: string): void {
  if (doc.querySelector("script[data-analytics]")) return;
  const script = doc.createElement("script");
  script.src = src;
  script.async = true;
  script.dataset.analytics = "";
  doc.head.append(script);
}
