/**
 * The one way the studio answers with a page of its own: a typed React component rendered to static
 * markup (decision 0051), so every value is escaped by React and no page is a string joined by hand.
 */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { createElement, type FunctionComponent } from "react";
import { renderToStaticMarkup } from "react-dom/server";

/** A component's whole document, as the studio serves it. */
export const documentOf = <P extends object>(Page: FunctionComponent<P>, props: P) =>
  `<!doctype html>${renderToStaticMarkup(createElement(Page, props))}`;

/** Answers a request with a page: `sendPage(c, ExportPage, { session }, 400)`. */
export const sendPage = <P extends object>(c: Context, Page: FunctionComponent<P>, props: P, status?: ContentfulStatusCode) =>
  c.html(documentOf(Page, props), status);
