/** The length a site password may have: plain data, read by the console's form as well as the server. */
export const SITE_PASSWORD_MIN = 8;
export const SITE_PASSWORD_MAX = 256;
