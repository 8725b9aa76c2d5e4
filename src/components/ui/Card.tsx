import type { Card as CardCopy } from "@/content/schemas/landing";
import { cn } from "@/shared/cn";
import { Icon } from "./icons/Icon";

/** An icon, a title (h3) and two or three lines of text, on a light or dark surface. */
export function Card({ card, dark = false, className }: { card: CardCopy; dark?: boolean; className?: string }) {
  return (
    <article className={cn("rounded-2xl border p-6", dark ? "border-line-dark bg-ink-900" : "border-line bg-paper", className)}>
      <span
        className={cn(
          "inline-flex size-11 items-center justify-center rounded-xl",
          dark ? "bg-ink-800 text-accent" : "bg-surface text-accent-strong",
        )}
      >
        <Icon name={card.icon} className="size-6" />
      </span>
      <h3 className="mt-4 text-lg font-semibold">{card.title}</h3>
      <p className={cn("mt-2 leading-relaxed", dark ? "text-muted-on-dark" : "text-muted")}>{card.body}</p>
    </article>
  );
}
