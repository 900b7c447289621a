/** A part of /methodology (issue 23). STUB: its owner fills it in. */
export function OfficialRules() {
  return null;
}
