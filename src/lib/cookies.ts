// Cookie names in one place: the /cookies page documents each of them.
export const CONSENT_COOKIE = "downcheck_cookies_ok";
export const CONSENT_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/**
 * The consent cookie as the notice's script stores it (`document.cookie`), with the attributes
 * the server action gives it for browsers without JavaScript.
 */
export const consentCookie = ({ secure }: { secure: boolean }) =>
  `${CONSENT_COOKIE}=1; Max-Age=${CONSENT_MAX_AGE_SECONDS}; Path=/; SameSite=Lax${secure ? "; Secure" : ""}`;

/**
 * Runs in <head> before the page paints: pages are cached and the same for everyone, so the
 * browser, not the server, knows whether this visitor dismissed the notice. The attribute hides
 * it with CSS, so it never flashes. (The consent cookie is readable by scripts for this reason.)
 */
export const CONSENT_HEAD_SCRIPT = `document.cookie.split("; ").indexOf("${CONSENT_COOKIE}=1")>-1&&document.documentElement.setAttribute("data-cookies-ok","")`;

/** Where browsers without JavaScript read whether this visitor dismissed the notice. */
export const CONSENT_STYLESHEET_PATH = "/consent.css";

/** That stylesheet: hides the notice for a visitor who dismissed it, and nothing otherwise. */
export const consentStylesheet = (dismissed: boolean) =>
  dismissed ? ".cookie-notice{display:none}\n" : "/* the cookie notice stays until dismissed */\n";
