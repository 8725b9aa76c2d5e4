import type { IconName } from "@/content/schemas/icons";
import { iconNodes } from "./icon-data";
import { SvgIcon } from "../SvgIcon";

/** A decorative lucide icon named in copy files. */
export function Icon({ name, className }: { name: IconName; className?: string }) {
  return <SvgIcon node={iconNodes[name]} className={className} />;
}
