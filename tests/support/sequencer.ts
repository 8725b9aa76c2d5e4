/**
 * Vitest's order of files: the longest first, by the committed timing list (tests/timings.json, written
 * by `npm test -- --update-timings`), so that the two workers end together instead of one running the
 * longest file alone at the end. Vitest's own order reads the times of this machine's last run, which a
 * fresh clone (CI) has not got; it then goes by file size. A file missing from the list (a new one) runs
 * first, as Vitest runs unknown files first, the larger first. Groups (`sequence.groupOrder`) keep their order.
 */
import { existsSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { BaseSequencer, type TestSpecification } from "vitest/node";

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const list = join(root, "tests", "timings.json");
    const timings = existsSync(list) ? (JSON.parse(readFileSync(list, "utf8")) as Record<string, number>) : {};
    const name = (spec: TestSpecification) => relative(root, spec.moduleId);
    // Unknown files first, the larger first (Vitest's own guess without times), then the known, longest first.
    const seconds = (spec: TestSpecification) => timings[name(spec)] ?? Number.MAX_SAFE_INTEGER;
    const size = (spec: TestSpecification) => statSync(spec.moduleId, { throwIfNoEntry: false })?.size ?? 0;
    return [...files].sort(
      (a, b) =>
        a.project.config.sequence.groupOrder - b.project.config.sequence.groupOrder ||
        seconds(b) - seconds(a) ||
        size(b) - size(a) ||
        name(a).localeCompare(name(b)),
    );
  }
}
