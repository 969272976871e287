// The development defaults that would grant access if they reached production, and the checks that keep them out.
// SECRET_KEY is refused by the schema in every production process; ADMIN_PASSWORD is read only by the seed, which
// refuses (adminPasswordRefusal) to create or keep an Admin with a known password in production.

export const DEVELOPMENT_SECRET_KEY = 'ockhub-development-secret-change-me';
export const DEVELOPMENT_ADMIN_PASSWORD = 'ockhub-admin-dev';
export const PRODUCTION_ADMIN_PASSWORD_MIN_LENGTH = 12;

/** Why ADMIN_PASSWORD may not be given to an Admin account, or undefined when it may (always outside production). */
export function adminPasswordRefusal(config: { NODE_ENV: string; ADMIN_PASSWORD: string }): string | undefined {
  if (config.NODE_ENV !== 'production') return undefined;
  if (config.ADMIN_PASSWORD === DEVELOPMENT_ADMIN_PASSWORD) {
    return 'ADMIN_PASSWORD is unset or the development default: set it to a private password of at least 12 characters';
  }
  if (config.ADMIN_PASSWORD.length < PRODUCTION_ADMIN_PASSWORD_MIN_LENGTH) {
    return `ADMIN_PASSWORD must have at least ${PRODUCTION_ADMIN_PASSWORD_MIN_LENGTH} characters in production`;
  }
  return undefined;
}

/** How `npm start` names the seeded Admin's password: the development default by its value (the README shows it
 * too; production never keeps it, see adminPasswordRefusal), any other only by the variable that holds it. When the
 * Admin's password is not that one (`current` false: the account was made earlier with another ADMIN_PASSWORD, or
 * its password was changed since), it says so, because the seed sets the password only when it creates the account. */
export function adminPasswordHint(config: { ADMIN_PASSWORD: string }, current = true): string {
  const isDefault = config.ADMIN_PASSWORD === DEVELOPMENT_ADMIN_PASSWORD;
  if (!current) {
    return (
      `its password is not ${isDefault ? 'the development default' : 'ADMIN_PASSWORD'}: the seed sets it only when ` +
      'it creates the account, so sign in with the password it has, or start on a new database'
    );
  }
  return isDefault
    ? `password ${DEVELOPMENT_ADMIN_PASSWORD}, the development default; ADMIN_PASSWORD sets another`
    : 'password from ADMIN_PASSWORD';
}
