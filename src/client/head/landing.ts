/**
 * The landing page's inline <head> script: every page's (./index.ts), plus the Under Development popup
 * and the Escape key of the tooltips' CSS fallback. Nothing else runs on the landing page until the
 * visitor points at or focuses a tooltip, nears the contact section, or the status dot needs its feed.
 */
import "./index";
import { popupController } from "./popup";
import { tipsController } from "./tips";

popupController();
tipsController();
