/**
 * The changed words of a page in plain words (lib/words.ts): each line where it is on the page, words
 * added in `<ins>`, words taken out in `<del>`, runs of unchanged lines counted. Drawn by an entry's
 * review and by the records' compare.
 */
import { Fragment } from "react";
import { DESTINATIONS, type changedWithContext } from "../../lib/words.ts";

export function WordRows({ rows }: { rows: ReturnType<typeof changedWithContext> }) {
  return rows.map((row, index) =>
    "skipped" in row ? (
      <p key={index} className="where">{`… ${row.skipped} unchanged line${row.skipped === 1 ? "" : "s"} …`}</p>
    ) : (
      <p key={index} data-changed={row.changed ? "" : undefined}>
        {row.where ? <span className="where">{`${row.where}: `}</span> : null}
        {row.parts.map((part, i, parts) => {
          // A changed destination reads "FINRA: https://www.finra.org → https://…": the old address, then the new.
          const arrow = part.change === "added" && parts[i - 1]?.change === "removed" && DESTINATIONS.has(row.where ?? "");
          const before = arrow ? " → " : part.space ? " " : "";
          return (
            <Fragment key={i}>
              {before}
              {part.change === "added" ? <ins>{part.text}</ins> : part.change === "removed" ? <del>{part.text}</del> : part.text}
            </Fragment>
          );
        })}
      </p>
    ),
  );
}
