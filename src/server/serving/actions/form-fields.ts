import "server-only";

// A server action is a public endpoint: its arguments are whatever a client sent, not
// necessarily the form our page would send (`0=[null,null]`, a number, a text body). Each action
// reads its fields through this, so a forged call gets the action's error state, not a 500.

export type FormFields<Name extends string> = Record<Name, FormDataEntryValue | null>;

/** The named fields of a form, or null when what arrived is not a form at all. */
export function formFields<Name extends string>(form: unknown, names: readonly Name[]): FormFields<Name> | null {
  if (!(form instanceof FormData)) return null;
  return Object.fromEntries(names.map((name) => [name, form.get(name)])) as FormFields<Name>;
}

export const NOT_A_FORM = "That request did not carry the form; reload the page and try again.";
