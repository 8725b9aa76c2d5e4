/** Icon names that copy files may use; each maps to a lucide icon in components/ui/icons/Icon.tsx. */
export const ICON_NAMES = [
  "award",
  "badge-check",
  "lightbulb",
  "scale",
  "server",
  "globe",
  "building",
  "shield",
  "headset",
  "landmark",
  "zap",
  "coins",
  "arrow-left-right",
  "check-circle",
  "trending-up",
  "lock",
  "network",
  "briefcase",
  "mail",
] as const;
export type IconName = (typeof ICON_NAMES)[number];
