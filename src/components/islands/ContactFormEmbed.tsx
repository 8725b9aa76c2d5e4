import { useEffect, useReducer, useRef } from "react";
import { FORM_LOAD_TIMEOUT_MS } from "@/lib/constants";
import { mayAutoLoadEmbeds, readConsent, sendsGlobalPrivacyControl } from "@/lib/consent";
import { ensureEmbedScript, nextFormState, removeEmbedScript, type FormEvent, type FormState } from "@/lib/form-embed";
import { IslandBoundary } from "./IslandBoundary";

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

/**
 * The provider's script and frame load only when the contact section comes within about a viewport,
 * or when the visitor goes to #contact; after Reject All or under GPC only a click loads them.
 * A failed script or a frame still not loaded after 10 s shows the e-mail instead.
 */
function FormEmbed(props: ContactFormEmbedProps) {
  // Starts "waiting" as rendered at build; the visitor's consent and GPC are read after hydration.
  const [state, dispatch] = useReducer((current: FormState, event: FormEvent) => nextFormState(current, event), "waiting");
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const check = () => {
      const allowed = mayAutoLoadEmbeds(
        readConsent(() => window.localStorage),
        sendsGlobalPrivacyControl(navigator),
      );
      if (!allowed) dispatch("require-click");
    };
    check();
    // A Reject All made after the page loaded counts too, if the form has not loaded yet.
    window.addEventListener("consentchange", check);
    return () => window.removeEventListener("consentchange", check);
  }, []);

  // Come near: the visitor scrolls to within one viewport of the section, or goes to #contact.
  // Nearness without a scroll (a viewport resized to the whole page, as audit tools do for full-page
  // screenshots) does not count: no third-party request for a visitor who never came near.
  useEffect(() => {
    if (state !== "waiting" || !box.current) return;
    let near = false;
    let scrolled = false;
    const check = () => near && scrolled && dispatch("near");
    const observer = new IntersectionObserver(
      (entries) => {
        near = entries.some((entry) => entry.isIntersecting);
        check();
      },
      { rootMargin: "100% 0px" },
    );
    observer.observe(box.current.closest("section") ?? box.current);
    const onScroll = () => {
      scrolled = true;
      check();
    };
    const onHash = () => location.hash === "#contact" && dispatch("near");
    onHash();
    window.addEventListener("scroll", onScroll, { passive: true, once: true });
    window.addEventListener("hashchange", onHash);
    return () => {
      observer.disconnect();
      window.removeEventListener("scroll", onScroll);
      window.removeEventListener("hashchange", onHash);
    };
  }, [state]);

  // Loading: add the provider's script once and start the 10 s watchdog.
  useEffect(() => {
    if (state !== "loading") return;
    ensureEmbedScript(document, props.scriptUrl, () => dispatch("script-error"));
    const timer = window.setTimeout(() => dispatch("timeout"), FORM_LOAD_TIMEOUT_MS);
    return () => window.clearTimeout(timer);
  }, [state, props.scriptUrl]);

  // The script leaves with the visitor (and with a failure, so a retry starts clean).
  useEffect(() => {
    const leave = () => removeEmbedScript(document);
    window.addEventListener("pagehide", leave);
    return () => {
      window.removeEventListener("pagehide", leave);
      leave();
    };
  }, []);
  useEffect(() => {
    if (state === "failed") removeEmbedScript(document);
  }, [state]);

  return (
    <div ref={box} className={boxClass} data-form-state={state}>
      {(state === "loading" || state === "loaded") && (
        <iframe
          id={props.formId}
          src={props.frameUrl}
          title={props.formTitle}
          data-form-name={props.formTitle}
          data-layout="{'id':'INLINE'}"
          loading="eager"
          onLoad={() => dispatch("frame-load")}
          className="absolute inset-0 h-full w-full border-0"
        />
      )}
      {state !== "loaded" && (
        // One live region from the first render on: its text changing to the fallback is what screen
        // readers announce (a status region inserted together with its message is often not announced).
        <div role="status" className="absolute inset-0 flex flex-col items-center justify-center gap-4 p-6 text-center">
          {state === "failed" ? (
            <p className="text-ink max-w-md leading-relaxed">
              {props.fallbackText} <EmailLink email={props.email} />.
            </p>
          ) : state === "needs-click" ? (
            <>
              <p className="text-muted max-w-md leading-relaxed">{props.consentText}</p>
              <button
                type="button"
                onClick={() => dispatch("click-load")}
                className="bg-accent-strong hover:bg-accent-strong-hover min-h-11 rounded-lg px-5 font-semibold text-white"
              >
                {props.loadButtonLabel}
              </button>
              <p className="text-muted text-sm">
                Or write to <EmailLink email={props.email} />.
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
