/**
 * Another origin (a second loopback port) serving a page whose form posts to the dashboard as soon as it loads:
 * what a hostile site would do to a signed-in visitor. Its inline script is fine: this is not our site.
 */
import { createServer } from 'node:http';

export async function crossOriginForm(port: number, action: string, fields: Readonly<Record<string, string>>): Promise<{ url: string; close(): Promise<void> }> {
  const inputs = Object.entries(fields).map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`).join('');
  const page = `<!doctype html><html lang="en"><head><title>Win a prize</title></head><body>
<form id="f" method="post" action="${action}">${inputs}</form><script>document.getElementById('f').submit()</script></body></html>`;
  const server = createServer((_request, response) => response.writeHead(200, { 'content-type': 'text/html' }).end(page));
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}
