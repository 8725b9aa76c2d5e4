// @ts-check
// The reviewers' build (`npm run build:preview`): unapproved text is built anyway, marked as a draft,
// into dist-preview/ (or SITE_OUT_DIR). Never published.
import { siteConfig } from "./astro.config.mjs";

export default siteConfig({ preview: true });
