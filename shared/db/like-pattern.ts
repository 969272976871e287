// A user's search text as a SQL LIKE pattern that matches it anywhere, its own % and _ taken literally.
export const containsPattern = (text: string) => `%${text.replace(/[\\%_]/g, (ch) => `\\${ch}`)}%`;
