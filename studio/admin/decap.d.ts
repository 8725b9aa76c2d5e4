/** The parts of Decap CMS's prebuilt bundle (window.CMS, its createElement and createClass) the studio's admin module uses. */
export interface ImmutableLike {
  get(key: string): unknown;
  toJS(): Record<string, unknown>;
}

export interface PreviewProps {
  entry: ImmutableLike & { get(key: "data"): ImmutableLike; get(key: "slug"): string };
  collection: ImmutableLike;
}

export type CreateElement = (type: unknown, props?: Record<string, unknown> | null, ...children: unknown[]) => unknown;

export interface DecapCms {
  registerEventListener(listener: { name: string; handler: (args: { entry: ImmutableLike }) => Promise<void> | void }): void;
  registerPreviewStyle(url: string): void;
  registerPreviewTemplate(name: string, component: unknown): void;
}

declare global {
  interface Window {
    CMS: DecapCms;
    h: CreateElement;
    createClass: (spec: Record<string, unknown>) => unknown;
  }
}
