// The rating's words, the same in the server-rendered card and the browser's form.

/** What the stars answer, asked once on the page. */
export const ratingQuestion = (displayName: string) => `Rate the functionality and service quality of ${displayName}`;
