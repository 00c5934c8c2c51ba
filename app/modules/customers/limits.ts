/** The e-mailed challenges' limits (ADR 029), plain data: the sign-in page says them too. */
export const CHALLENGE_MINUTES = 15;
export const MAX_CODE_ATTEMPTS = 5;
