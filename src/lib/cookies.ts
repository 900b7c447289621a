// Cookie names in one place: the /cookies page documents each of them.
export const CONSENT_COOKIE = "downcheck_cookies_ok";
