/** `npm run bench:bytes`: the byte budgets over dist/ (seconds). */
import { join } from "node:path";
import { checkByteBudgets } from "./bytes.ts";
import { projectRoot } from "../lib/root.ts";

const dist = join(projectRoot, "dist");
const { pages, results } = checkByteBudgets(dist);
console.log("| page | HTML br | JS up front br | JS on intent br | other assets br |\n| --- | ---: | ---: | ---: | ---: |");
for (const p of pages) console.log(`| ${p.page} | ${p.htmlBrotli} | ${p.jsBrotli} | ${p.lazyJsBrotli} | ${p.otherAssetsBrotli} |`);
console.log("");
for (const r of results) console.log(`${r.ok ? "ok  " : "FAIL"} ${r.name}: ${r.value} (limit ${r.limit})`);
const failed = results.filter((r) => !r.ok);
console.log(failed.length ? `\n${failed.length} byte budget(s) exceeded` : "\nall byte budgets met");
process.exit(failed.length ? 1 : 0);
