// What every server action answers (useActionState's state): how it went, in words for the
// visitor, and the fields at fault; an action adds what its form shows beside (ActionState & {...}).

export interface ActionState<Field extends string = string> {
  status: "idle" | "success" | "error";
  message: string;
  fieldErrors?: Partial<Record<Field, string[]>>;
}

export const IDLE: ActionState = { status: "idle", message: "" };
