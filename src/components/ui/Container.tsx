import type { ReactNode } from "react";
import { cn } from "@/shared/cn";

/** The page's content column: max 1200 px wide with responsive gutters. */
export function Container({ children, className }: { children: ReactNode; className?: string }) {
  return <div className={cn("mx-auto w-full max-w-[75rem] px-4 sm:px-6 lg:px-8", className)}>{children}</div>;
}
