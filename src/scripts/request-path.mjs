// A request path Next cannot decode (a lone "%", "%zz", a broken UTF-8 sequence) makes Next
// look for a /400 page the App Router does not have, and it answers a bare 500 without our
// headers. Escaping every "%" of such a path keeps the characters the client sent, so the app's
// own routes answer them: a 404 page for a page, a 400 `invalid_domain` for the API.

/** The request target with an undecodable path made decodable; any other target as it is. */
export function decodablePath(target) {
  const queryAt = target.indexOf("?");
  const path = queryAt < 0 ? target : target.slice(0, queryAt);
  try {
    decodeURIComponent(path);
    return target;
  } catch {
    return path.replaceAll("%", "%25") + (queryAt < 0 ? "" : target.slice(queryAt));
  }
}
