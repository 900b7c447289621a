// @ts-check
/** The longest server action call accepted, in bytes: Next's default `serverActions.bodySizeLimit`; our forms send a few hundred. */
export const ACTION_BODY_LIMIT_BYTES = 1024 * 1024;
