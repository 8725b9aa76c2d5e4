import { useEffect, useReducer, useRef } from "react";
import { CONSENT_HTML_ATTRIBUTE, FORM_LOAD_TIMEOUT_MS } from "@/shared/constants";
import { CONSENT_EVENT, mayAutoLoadEmbeds, parseConsent, sendsGlobalPrivacyControl } from "@/shared/consent";
import * as form from "./state";
import { IslandBoundary } from "../IslandBoundary";

export interface ContactFormEmbedProps {
  formTitle: string;
  formId: string;
  frameUrl: string;
  scriptUrl: string;
  email: string;
  placeholderText: string;
  fallbackText: string;
  consentText: string;
  loadButtonLabel: string;
  orWriteText: string;
}

/** Fixed height of the form's place, reserved before anything loads so nothing below it moves. */
const boxClass = "relative h-[42rem] w-full overflow-hidden rounded-2xl border border-line bg-paper";

function EmailLink({ email }: { email: string }) {
  return (
    <a href={`mailto:${email}`} className="text-accent-strong font-semibold underline underline-offset-2">
      {email}
    </a>
  );
}

/** The choice as the page holds it: <html data-consent>, set before first paint and changed by the banner. */
const consentOf = () => parseConsent(document.documentElement.getAttribute(CONSENT_HTML_ATTRIBUTE));

/**
 * The contact form (./state.ts decides): with Accept All it loads when the contact section is
 * in view, however the visitor got there (scroll, a restored scroll position, #contact, keyboard, a tall
 * window); undecided, rejected or under GPC, a click loads it. The first render is the server's
 * (placeholder and e-mail); consent is read after hydration, so the click-to-load button never shows
 * before it can work.
 */
function FormEmbed(props: ContactFormEmbedProps) {
  const [state, dispatch] = useReducer(form.nextFormEmbedState, form.initialFormEmbedState);
  const box = useRef<HTMLDivElement>(null);

  // Consent as the page holds it (<html data-consent>, set by the head script), now and on every change.
  useEffect(() => {
    const read = () => dispatch({ type: "consent", auto: mayAutoLoadEmbeds(consentOf(), sendsGlobalPrivacyControl(navigator)) });
    read();
    window.addEventListener(CONSENT_EVENT, read);
    return () => window.removeEventListener(CONSENT_EVENT, read);
  }, []);

  // Whether the visitor is at the contact section; the observer reports the current state as it starts.
  useEffect(() => {
    const section = box.current?.closest("section") ?? box.current;
    if (!section) return;
    const observer = new IntersectionObserver((entries) => {
      const latest = entries[entries.length - 1];
      if (latest) dispatch({ type: "view", inView: latest.isIntersecting });
    });
    observer.observe(section);
    return () => observer.disconnect();
  }, []);

  // The provider's script: added on entering the section, removed on leaving it.
  const wantsScript = form.wantsEmbedScript(state);
  useEffect(() => {
    if (!wantsScript) return;
    form.ensureEmbedScript(document, props.scriptUrl, {
      load: () => dispatch({ type: "script-load" }),
      error: () => dispatch({ type: "script-error" }),
    });
    return () => form.removeEmbedScript(document);
  }, [wantsScript, props.scriptUrl]);

  // A form still not loaded after 10 s gives way to the e-mail.
  useEffect(() => {
    if (state.status !== "loading") return;
    const timer = window.setTimeout(() => dispatch({ type: "timeout" }), FORM_LOAD_TIMEOUT_MS);
    return () => window.clearTimeout(timer);
  }, [state.status]);

  const view = form.formEmbedView(state);
  return (
    <div ref={box} className={boxClass} data-form-state={view === "frame" ? state.status : view === "click" ? "needs-click" : view}>
      {view === "frame" && (
        <iframe
          id={props.formId}
          src={props.frameUrl}
          title={props.formTitle}
          data-form-name={props.formTitle}
          data-layout="{'id':'INLINE'}"
          loading="eager"
          onLoad={() => dispatch({ type: "frame-load" })}
          className="absolute inset-0 h-full w-full border-0"
        />
      )}
      {state.status !== "loaded" && (
        // One live region from the first render on: its text changing to the fallback is what screen
        // readers announce (a status region inserted together with its message is often not announced).
        <div role="status" className="absolute inset-0 flex flex-col items-center justify-center gap-4 p-6 text-center">
          {view === "failed" ? (
            <p className="text-ink max-w-md leading-relaxed">
              {props.fallbackText} <EmailLink email={props.email} />.
            </p>
          ) : view === "click" ? (
            <>
              <p className="text-muted max-w-md leading-relaxed">{props.consentText}</p>
              <button
                type="button"
                onClick={() => dispatch({ type: "click-load" })}
                className="bg-accent-strong hover:bg-accent-strong-hover min-h-11 rounded-lg px-5 font-semibold text-white"
              >
                {props.loadButtonLabel}
              </button>
              <p className="text-muted text-sm">
                {props.orWriteText} <EmailLink email={props.email} />.
              </p>
            </>
          ) : (
            <p className="text-muted max-w-md leading-relaxed">
              {props.placeholderText} <EmailLink email={props.email} />.
            </p>
          )}
        </div>
      )}
    </div>
  );
}

export function ContactFormEmbed(props: ContactFormEmbedProps) {
  return (
    <IslandBoundary name="ContactFormEmbed">
      <FormEmbed {...props} />
    </IslandBoundary>
  );
}
