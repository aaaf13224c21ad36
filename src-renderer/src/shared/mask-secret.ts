/** What stands for a hidden secret, everywhere: eight bullets, whatever the secret's length. */
export const MASK = '•'.repeat(8);

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * `text` (a proxy string) with the password `secret` replaced by the mask. In every format the app
 * makes, the password follows the username's `:` and ends the string or comes before `@`, as typed
 * or percent-encoded (URL formats): only that place is masked, so a short password does not blank
 * other letters of the line. A text of any other shape has every occurrence masked instead: showing
 * too little is better than showing the password. Copying uses the real text; only what is shown
 * is masked.
 */
export function maskSecret(text: string, secret: string): string {
  if (!secret) return text;
  const forms = [...new Set([secret, encodeURIComponent(secret)])];
  let masked = text;
  let found = false;
  for (const form of forms) {
    const placed = new RegExp(`:${escapeRegExp(form)}(?=@|$)`, 'g');
    if (placed.test(masked)) {
      found = true;
      masked = masked.replace(placed, `:${MASK}`);
    }
  }
  if (found) return masked;
  for (const form of forms) masked = masked.split(form).join(MASK);
  return masked;
}
