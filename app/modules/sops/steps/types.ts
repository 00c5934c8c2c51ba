/**
 * What a SOP step is, for the registry and for the console's step editor. Client-safe: no server imports,
 * so the editor can render fields from the same descriptions the server validates with.
 */
export type FieldKind = "text" | "textarea" | "select" | "expression" | "assignments";

export interface FieldSpec {
  name: string;
  label: string;
  kind: FieldKind;
  required?: boolean;
  options?: readonly string[];
  hint?: string;
  placeholder?: string;
}

export interface StepDescription {
  type: string;
  label: string;
  description: string;
  fields: readonly FieldSpec[];
}

/** A step as stored: its type, an optional name later steps refer to (`steps.<name>`), and its fields. */
export interface StoredStep {
  type: string;
  name?: string;
  [field: string]: string | undefined;
}

export type StepStatus = "succeeded" | "failed" | "stopped" | "skipped";

/** One step's result in a run, as the run endpoint and the console show it. */
export interface StepResult {
  index: number;
  type: string;
  name: string;
  status: StepStatus;
  output: unknown;
  error: string | null;
  attempt: number;
  startedAt: string;
  finishedAt: string;
}
