/**
 * The landing page's inline <head> script: every page's (./index.ts), plus the Under Development popup. Nothing else runs on the landing page until the
 * visitor points at or focuses a tooltip, nears the contact section, or the status dot needs its feed.
 */
import "./index";
import { popupController } from "./popup";

popupController();
