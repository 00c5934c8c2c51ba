/**
 * Searching text with LIKE on both dialects: `%` and `_` in what was typed are LIKE's wildcards, so they are
 * escaped with `\`, and the ESCAPE clause is declared because SQLite has no escape character by default.
 */
import { sql, type RawBuilder } from "kysely";

/** The pattern of "contains `text`", lower-cased, its wildcards escaped. */
export const likePattern = (text: string) => `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** Whether `column`'s text contains `text`, ignoring case, literally. */
export const containsText = (column: string, text: string): RawBuilder<boolean> =>
  sql<boolean>`lower(${sql.ref(column)}) like ${likePattern(text)} escape '\\'`;
