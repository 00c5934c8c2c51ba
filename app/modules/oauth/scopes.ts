/** OAuth scopes and their plain-words descriptions (client-safe: the consent page renders them). */
export const SCOPES = {
  read_profile: "See your e-mail address, your plan and when your account was created",
  read_data: "Read the data of the workspaces you belong to through the API",
} as const;

export type Scope = keyof typeof SCOPES;

export const isScope = (value: string): value is Scope => Object.hasOwn(SCOPES, value);

/** Space-separated, de-duplicated, in a stable order. */
export function formatScopes(scopes: Iterable<string>): string {
  const set = new Set(scopes);
  return (Object.keys(SCOPES) as Scope[]).filter((s) => set.has(s)).join(" ");
}

export function parseScopes(value: string): string[] {
  return value.split(" ").filter(Boolean);
}
