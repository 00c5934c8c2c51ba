/**
 * Which passwords an account may choose, after NIST SP 800-63B §5.1.1.2: a length rule, a list of common and
 * breached passwords, repetitive or sequential strings, and words from the context (the e-mail, the product,
 * the workspace). No composition rules ("a digit and a symbol"): they push people to `Password1!`, which the
 * list refuses anyway. `passwordProblem` is pure (the list is an argument) so tests can drive it directly;
 * `commonPasswords` loads the shipped list once, on first use.
 */

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 256;

export interface PasswordContext {
  email?: string;
  /** The workspace's name, where the password is chosen for one. */
  workspaceName?: string;
}

export const PASSWORD_MESSAGES = {
  short: `Use at least ${PASSWORD_MIN} characters`,
  long: `Use at most ${PASSWORD_MAX} characters`,
  common: "This password appears in lists of common or leaked passwords; choose another, such as a few unrelated words",
  pattern: "Avoid repeated or sequential characters (such as aaaa or 1234); try a few unrelated words",
  context: "Don't use your email address, the workspace's name or \"Atrium\" as your password",
} as const;

export type PasswordProblem = keyof typeof PASSWORD_MESSAGES;

const PRODUCT = "atrium";

/** Letters only, lower-cased: `Atrium2024!` and `atrium` are the same guess to an attacker. */
const lettersOf = (value: string) => value.toLowerCase().replace(/[^\p{L}]/gu, "");

/** The whole password is one short unit repeated (`aaaaaaaaaa`, `abababab`, `abcabcabca`: a tail may be cut short). */
function isRepetitive(password: string): boolean {
  const chars = [...password.toLowerCase()];
  if (new Set(chars).size <= 2) return true;
  for (let unit = 1; unit <= 4 && unit * 2 <= chars.length; unit += 1) {
    if (chars.every((c, i) => c === chars[i % unit])) return true;
  }
  return false;
}

/** Every character one step from the last, up or down (`abcdefghij`, `9876543210`; digits wrap: `1234567890`). */
function isSequential(password: string): boolean {
  const codes = [...password.toLowerCase()].map((c) => c.codePointAt(0) ?? 0);
  const step = (a: number, b: number) => {
    const digits = a >= 48 && a <= 57 && b >= 48 && b <= 57;
    const diff = b - a;
    return digits && Math.abs(diff) === 9 ? -Math.sign(diff) : diff;
  };
  const first = step(codes[0] ?? 0, codes[1] ?? 0);
  if (Math.abs(first) !== 1) return false;
  return codes.every((c, i) => i === 0 || step(codes[i - 1] ?? 0, c) === first);
}

function contextWords(context: PasswordContext): string[] {
  const words = [PRODUCT];
  if (context.email) {
    const email = context.email.trim().toLowerCase();
    words.push(email, email.split("@")[0] ?? "");
  }
  if (context.workspaceName) words.push(context.workspaceName);
  return words.map(lettersOf).filter((w) => w.length >= 3);
}

/** The first rule the password breaks, or null. `common` holds lower-cased entries. */
export function passwordProblem(
  password: string,
  context: PasswordContext,
  common: ReadonlySet<string>,
): PasswordProblem | null {
  const length = [...password].length;
  if (length < PASSWORD_MIN) return "short";
  if (length > PASSWORD_MAX) return "long";
  const lower = password.toLowerCase();
  if (common.has(lower)) return "common";
  if (isRepetitive(password) || isSequential(password)) return "pattern";
  const letters = lettersOf(password);
  // The e-mail itself (`alice@example.com`) or a context word with digits or symbols around it (`Atrium2024!`).
  if (context.email && lower === context.email.trim().toLowerCase()) return "context";
  if (letters && contextWords(context).includes(letters)) return "context";
  return null;
}

let loading: Promise<ReadonlySet<string>> | undefined;

/**
 * The common-and-breached list of zxcvbn-ts (about 49,000 entries, shipped in the package: no network), kept
 * only where an entry could match: a password shorter than the minimum is refused before the list is read.
 * Loaded once, lazily, so a process that never sees a password (the job runner, the CLI's other commands)
 * does not pay for decompressing it.
 */
export function commonPasswords(): Promise<ReadonlySet<string>> {
  loading ??= import("@zxcvbn-ts/language-common").then(({ dictionary }) => {
    const list = dictionary["passwords-common"];
    return new Set(list.filter((p) => [...p].length >= PASSWORD_MIN).map((p) => p.toLowerCase()));
  });
  return loading;
}
