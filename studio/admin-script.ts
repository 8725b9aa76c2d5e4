/**
 * The admin page's own script, beside Decap's bundle (served as /admin/studio.js):
 * - a link to the approvals view;
 * - a prePublish listener that asks the studio whether the entry's pages are approved, and stops the
 *   publish with the studio's message when they are not;
 * - the preview pane: the site's stylesheet, and for every entry a template that asks the studio to
 *   render what is being edited with the site's own components (studio/preview/), as visitors get it.
 *   What the build would refuse is named above the last good rendering instead.
 */
export function adminScript(templates: readonly string[]): string {
  return `(() => {
  const { CMS, h, createClass } = window;
  const link = document.createElement("a");
  link.href = "/admin/approvals";
  link.textContent = "Approvals";
  link.setAttribute("style", "position:fixed;right:1rem;bottom:1rem;z-index:400;background:#0f172a;color:#fff;padding:.5rem 1rem;border-radius:.25rem;font:600 14px system-ui,sans-serif");
  document.body.append(link);

  CMS.registerEventListener({
    name: "prePublish",
    handler: async ({ entry }) => {
      const query = new URLSearchParams({ collection: entry.get("collection"), slug: entry.get("slug") });
      const answer = await fetch("/admin/approvals/check?" + query, { headers: { Accept: "application/json" } });
      const { refusal } = await answer.json();
      if (refusal) throw new Error(refusal);
    },
  });

  CMS.registerPreviewStyle("/admin/preview.css");
  const problemsStyle = { margin: "1rem", padding: "1rem", border: "2px solid #b91c1c", borderRadius: ".5rem", background: "#fef2f2", color: "#7f1d1d", font: "14px/1.5 system-ui, sans-serif" };
  const SitePreview = createClass({
    getInitialState() {
      return { html: "", problems: null };
    },
    componentDidMount() {
      this.request();
    },
    componentDidUpdate(before) {
      if (before.entry !== this.props.entry) this.request();
    },
    componentWillUnmount() {
      this.gone = true;
      clearTimeout(this.timer);
    },
    request() {
      clearTimeout(this.timer);
      // Typing sends one request when the editor pauses, not one a key.
      this.timer = setTimeout(() => this.send(), 120);
    },
    async send() {
      const { entry, collection } = this.props;
      const asked = (this.asked = (this.asked || 0) + 1);
      const request = { collection: collection.get("name"), slug: entry.get("slug"), data: entry.get("data").toJS() };
      let next;
      try {
        const answer = await fetch("/admin/preview", { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(request) });
        const result = await answer.json();
        next = typeof result.html === "string" ? { html: result.html, problems: null } : { problems: result.problems || [result.error || "The studio could not draw this entry."] };
      } catch (error) {
        next = { problems: ["The studio did not answer: " + error.message] };
      }
      if (!this.gone && asked === this.asked) this.setState(next);
    },
    render() {
      const { html, problems } = this.state;
      return h(
        "div",
        { "data-studio-preview": problems ? "refused" : html ? "ready" : "waiting" },
        problems &&
          h("div", { role: "alert", style: problemsStyle }, h("strong", null, "The build would refuse this entry:"), h("ul", null, problems.map((problem) => h("li", { key: problem }, problem)))),
        h("div", { style: problems ? { opacity: 0.4 } : undefined, dangerouslySetInnerHTML: { __html: html } }),
      );
    },
  });
  for (const name of ${JSON.stringify(templates)}) CMS.registerPreviewTemplate(name, SitePreview);
})();
`;
}
