/**
 * The preview pane: for every entry, a template that asks the studio to render what is being edited
 * with the site's own components and stylesheet (studio/preview/), as visitors get it. What the build
 * would refuse is named above the last good rendering instead.
 */
import type { PreviewProps } from "./decap.d.ts";

interface State {
  html: string;
  problems: string[] | null;
}

const problemsStyle = {
  margin: "1rem",
  padding: "1rem",
  border: "2px solid #b91c1c",
  borderRadius: ".5rem",
  background: "#fef2f2",
  color: "#7f1d1d",
  font: "14px/1.5 system-ui, sans-serif",
};

async function draw(props: PreviewProps): Promise<State> {
  const { entry, collection } = props;
  const request = { collection: collection.get("name"), slug: entry.get("slug"), data: entry.get("data").toJS() };
  try {
    const answer = await fetch("/admin/preview", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(request),
    });
    const result = (await answer.json()) as { html?: string; problems?: string[]; error?: string };
    return typeof result.html === "string"
      ? { html: result.html, problems: null }
      : { html: "", problems: result.problems ?? [result.error ?? "The studio could not draw this entry."] };
  } catch (error) {
    return { html: "", problems: [`The studio did not answer: ${(error as Error).message}`] };
  }
}

export function registerPreviews(templates: readonly string[]) {
  const { CMS, h, createClass } = window;
  CMS.registerPreviewStyle("/admin/preview.css");
  const SitePreview = createClass({
    getInitialState(): State {
      return { html: "", problems: null };
    },
    componentDidMount(this: { request(): void }) {
      this.request();
    },
    componentDidUpdate(this: { props: PreviewProps; request(): void }, before: PreviewProps) {
      if (before.entry !== this.props.entry) this.request();
    },
    componentWillUnmount(this: { gone: boolean; timer?: ReturnType<typeof setTimeout> }) {
      this.gone = true;
      clearTimeout(this.timer);
    },
    request(this: { timer?: ReturnType<typeof setTimeout>; send(): void }) {
      clearTimeout(this.timer);
      // Typing sends one request when the editor pauses, not one a key.
      this.timer = setTimeout(() => this.send(), 120);
    },
    async send(this: { props: PreviewProps; asked?: number; gone?: boolean; state: State; setState(next: Partial<State>): void }) {
      const asked = (this.asked = (this.asked ?? 0) + 1);
      const next = await draw(this.props);
      // The last good drawing stays under the problems.
      if (!this.gone && asked === this.asked) this.setState(next.problems ? { problems: next.problems } : next);
    },
    render(this: { state: State }) {
      const { html, problems } = this.state;
      return h(
        "div",
        { "data-studio-preview": problems ? "refused" : html ? "ready" : "waiting" },
        problems &&
          h(
            "div",
            { role: "alert", style: problemsStyle },
            h("strong", null, "The build would refuse this entry:"),
            h("ul", null, ...problems.map((problem) => h("li", { key: problem }, problem))),
          ),
        h("div", { style: problems ? { opacity: 0.4 } : undefined, dangerouslySetInnerHTML: { __html: html } }),
      );
    },
  });
  for (const name of templates) CMS.registerPreviewTemplate(name, SitePreview);
}
