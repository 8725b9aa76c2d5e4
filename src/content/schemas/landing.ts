import { z } from "zod";
import { ICON_NAMES } from "./icons.ts";
import { plainText } from "./plain-text.ts";

/**
 * Schemas of the landing page copy (src/content/landing/*.yaml, one file per section).
 * Each field's comment is the copy editor's manual; counts are the product spec's.
 */
const text = (max: number) => plainText(1, max);

export const cardSchema = z.strictObject({
  /** lucide icon shown on the card (one of src/content/schemas/icons.ts). */
  icon: z.enum(ICON_NAMES),
  /** Card title, a few words. */
  title: text(60),
  /** Two or three lines of supporting text. */
  body: text(320),
});

export const sectionIntroSchema = {
  /** Small label above the heading. */
  eyebrow: text(60),
  /** The section's h2. */
  heading: text(120),
  /** One or two sentences under the heading. */
  lede: text(400),
};

/** The hero's drawing of net settlement (beside the headline from 1024 px up). */
export const settlementSchema = z.strictObject({
  /** One sentence saying what the drawing shows; screen readers read it instead of the drawing. */
  summary: text(200),
  /** The venue in the middle, first line (bold), e.g. "Regulated ATS". */
  venue: text(20),
  /** The venue's second line, e.g. "and clearing". */
  venueDetail: text(20),
  /**
   * Four to six institutions around the venue, clockwise from the top, with where each ends up after
   * netting: "pays" or "receives" one net amount, or "flat" (its obligations cancel out). At least one
   * pays and one receives.
   */
  participants: z
    .array(
      z.strictObject({
        /** Short label beside the dot, e.g. "Hedge fund" (at most 16 characters, so it fits the drawing). */
        name: text(16),
        /** pays | receives | flat */
        net: z.enum(["pays", "receives", "flat"]),
      }),
    )
    .min(4)
    .max(6)
    .refine((list) => list.some((p) => p.net === "pays") && list.some((p) => p.net === "receives"), {
      message: "at least one participant pays and one receives",
    }),
  /** Legend, after the number of obligations between the participants, e.g. "gross obligations". */
  grossLabel: text(40),
  /** Legend, after the number of net transfers, e.g. "net transfers through the ATS". */
  netLabel: text(40),
});

export const heroSchema = z.strictObject({
  /** The landing page's <title> (the brand is appended). */
  pageTitle: text(70),
  /** The landing page's meta description (50 to 160 characters). */
  pageDescription: plainText(50, 160),
  /** Small line above the headline (the audience notice). */
  eyebrow: text(80),
  /** The page's h1: the trusted leader in digital asset trading. */
  headline: text(120),
  /** Supporting sentence under the headline. */
  lede: text(400),
  /** Exactly three value cards: Proven Excellence, Industry Standard, Innovation Leader. */
  valueCards: z.array(cardSchema).length(3),
  /** Label of the button that jumps to #features. */
  exploreLabel: text(40),
  /** Label of the button that jumps to #contact. */
  partnerLabel: text(40),
  /** Sentence next to the BrokerCheck link about the regulated ATS. */
  atsNotice: text(300),
  /** The drawing of net settlement beside the headline. */
  settlement: settlementSchema,
});

export const highlightSchema = z.strictObject({
  /** lucide icon of the highlight. */
  icon: z.enum(ICON_NAMES),
  /** Highlight title, e.g. "Ultra-Low Latency". */
  title: text(40),
  /** The figure shown large, e.g. "< 1 ms" (tabular numbers). */
  figure: text(24),
  /** Tooltip text explaining the figure. */
  tooltip: text(200),
});

export const featuresSchema = z.strictObject({
  ...sectionIntroSchema,
  /** Exactly four capability cards. */
  capabilities: z.array(cardSchema).length(4),
  /** Exactly four highlights. */
  highlights: z.array(highlightSchema).length(4),
});

export const industriesSchema = z.strictObject({
  ...sectionIntroSchema,
  /** Exactly eight industries, each with a one-line tagline. */
  taglines: z
    .array(
      z.strictObject({
        /** Industry name, e.g. "Hedge Funds". */
        industry: text(40),
        /** What the platform does for it, one line. */
        tagline: text(160),
      }),
    )
    .length(8),
  /** Exactly three solution cards: Tokenization, Net Settling, Clearing. */
  cards: z.array(cardSchema).length(3),
});

export const whyUsSchema = z.strictObject({
  ...sectionIntroSchema,
  /** Exactly four reasons. */
  cards: z.array(cardSchema).length(4),
});

export const contactSchema = z.strictObject({
  ...sectionIntroSchema,
  /** Label before the business-development e-mail link. */
  emailLabel: text(80),
  /** Heading above the embedded form (the spec's "Contact Us"). */
  formTitle: z.literal("Contact Us"),
  /** Shown where the form would be when it failed to load; the e-mail link follows it. */
  fallbackText: text(300),
  /**
   * Shown with the click-to-load button (no Accept All yet, Reject All, or Global Privacy Control): what
   * loading the form shares, and with whom. {{formProviderName}} is filled in from the site configuration.
   */
  consentText: text(400),
  /** Label of the click-to-load button. */
  loadButtonLabel: z.literal("Load the contact form"),
  /** Shown where the form will appear, before it loads and without JavaScript; the e-mail link follows it. */
  placeholderText: text(300),
  /** Under the click-to-load button; the e-mail link follows it. */
  orWriteText: text(80),
});

/** The Under Development popup (src/content/landing/popup.yaml), shown 4 s after the landing page loads. */
export const popupSchema = z.strictObject({
  /** The dialog's heading and accessible name (the spec's "Under Development"). */
  heading: z.literal("Under Development"),
  /** One or two sentences under the heading. */
  body: text(240),
  /** Accessible name of the progress bar (fixed at 75 %, src/shared/constants.ts). */
  progressLabel: text(40),
  /** Shown after the percentage, e.g. "complete" in "75% complete". */
  progressSuffix: text(30),
  /** Accessible name of the close button (the tests and the architecture call it "Close"). */
  closeLabel: text(30),
});

/**
 * What the header's status dot says (src/content/landing/status.yaml). {host} is the configured status
 * page's host name and {description} that page's own words, filled in by the browser.
 */
export const statusCopySchema = z.strictObject({
  /** No status page configured: must make no statement about the platform's health. */
  unconfigured: text(120),
  /** Before the status page has answered (and without JavaScript); names {host}. */
  checking: text(120).regex(/\{host\}/, "must name {host}"),
  /** The status page's answer; names {host} and {description}. */
  reported: text(120).regex(/\{host\}.*\{description\}|\{description\}.*\{host\}/, "must name {host} and {description}"),
  /** No usable answer; names {host}. */
  unavailable: text(120).regex(/\{host\}/, "must name {host}"),
  /** Accessible name of the dot as a link to the status page, and as a button without one. */
  linkLabel: text(80),
  buttonLabel: text(80),
});

export type Card = z.infer<typeof cardSchema>;
export type Highlight = z.infer<typeof highlightSchema>;
export type HeroCopy = z.infer<typeof heroSchema>;
export type SettlementCopy = z.infer<typeof settlementSchema>;
export type FeaturesCopy = z.infer<typeof featuresSchema>;
export type IndustriesCopy = z.infer<typeof industriesSchema>;
export type WhyUsCopy = z.infer<typeof whyUsSchema>;
export type ContactCopy = z.infer<typeof contactSchema>;
export type PopupCopy = z.infer<typeof popupSchema>;
export type StatusCopy = z.infer<typeof statusCopySchema>;
