/**
 * What a new password must be: 10 to 1024 characters (length is what makes a password strong; no composition
 * rules, as NIST SP 800-63B advises), not the account's own email.
 */
import { InvalidArgumentError } from '../../core/domain/errors.js';

export const PASSWORD_MIN = 10;
export const PASSWORD_MAX = 1024;

export function checkNewPassword(password: string, email: string): void {
  const length = [...password].length;
  if (length < PASSWORD_MIN) throw new InvalidArgumentError('password', `Use at least ${PASSWORD_MIN} characters for your password.`);
  if (length > PASSWORD_MAX) throw new InvalidArgumentError('password', `Passwords are at most ${PASSWORD_MAX} characters.`);
  if (password.trim().toLowerCase() === email.trim().toLowerCase()) throw new InvalidArgumentError('password', 'Your password cannot be your email address.');
}
