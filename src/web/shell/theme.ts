import type { FastifyInstance, FastifyRequest } from 'fastify';

/** auto follows the browser's prefers-color-scheme; light and dark are the visitor's override. */
export type Theme = 'auto' | 'light' | 'dark';
export const THEMES: readonly Theme[] = ['auto', 'light', 'dark'];
export const THEME_COOKIE = 'outpoint_theme';
const ONE_YEAR_S = 365 * 86_400;

/** The theme the server writes into <html data-theme>, from the cookie (anything unknown is auto). */
export function themeOf(request: FastifyRequest): Theme {
  const header = request.headers.cookie;
  if (!header) return 'auto';
  for (const part of header.split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === THEME_COOKIE && (value === 'light' || value === 'dark')) return value;
  }
  return 'auto';
}

/** Only a path of this site (not `//host`, not a scheme): the theme form cannot be used as an open redirect. */
export function localPath(value: unknown, fallback = '/'): string {
  if (typeof value !== 'string' || !value.startsWith('/') || value.startsWith('//') || value.includes('\\') || value.length > 2000) return fallback;
  return /^[\x21-\x7e]*$/.test(value) ? value : fallback;
}

/**
 * POST /theme (theme=auto|light|dark, back=/path): stores the choice in a cookie and goes back to the page. A
 * plain form, so it works without JavaScript; the next page is rendered in the chosen theme, with no flash.
 */
export function themeRoutes(app: FastifyInstance, publicUrl: string): void {
  // Secure as the dashboard's cookies are when the public URL is https (TLS may end at a proxy in front), and
  // whenever this request itself came over TLS.
  const httpsSite = publicUrl.startsWith('https:');
  app.post<{ Body: Record<string, unknown> | undefined }>('/theme', async (request, reply) => {
    const chosen = request.body?.['theme'];
    const theme: Theme = chosen === 'light' || chosen === 'dark' ? chosen : 'auto';
    const secure = httpsSite || request.protocol === 'https' ? '; Secure' : '';
    const cookie =
      theme === 'auto'
        ? `${THEME_COOKIE}=; Path=/; Max-Age=0; SameSite=Lax${secure}`
        : `${THEME_COOKIE}=${theme}; Path=/; Max-Age=${ONE_YEAR_S}; SameSite=Lax${secure}`;
    return reply.header('set-cookie', cookie).redirect(localPath(request.body?.['back']), 303);
  });
}
