/** Decap's own file formatters (decap-cms-core ships them untyped): the code its editor saves with. */
declare module "decap-cms-core/dist/esm/formats/yaml.js" {
  const formatter: {
    fromFile(content: string): unknown;
    toFile(data: unknown, sortedKeys?: string[], comments?: Record<string, string>): string;
  };
  export default formatter;
}
declare module "decap-cms-core/dist/esm/formats/frontmatter.js" {
  export function frontmatterYAML(customDelimiter?: string): {
    fromFile(content: string): Record<string, unknown>;
    toFile(data: Record<string, unknown>, sortedKeys?: string[], comments?: Record<string, string>): string;
  };
}
