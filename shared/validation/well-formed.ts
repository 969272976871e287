/** ES2024's `String.prototype.isWellFormed` (Node 20 and later; the project's TypeScript lib is ES2023): no unpaired surrogate. */
export const wellFormed = (text: string): boolean => (text as string & { isWellFormed(): boolean }).isWellFormed();
