/** Where the dashboard's pages are, for links in mails and the CLI's output (the web layer serves these paths). */
export const DASHBOARD_PATH = '/dashboard';

export const DASHBOARD_PAGES = {
  overview: `${DASHBOARD_PATH}`,
  signIn: `${DASHBOARD_PATH}/sign-in`,
  signUp: `${DASHBOARD_PATH}/sign-up`,
  reset: `${DASHBOARD_PATH}/reset`,
  verify: `${DASHBOARD_PATH}/verify`,
} as const;

export class DashboardLinks {
  /** `publicUrl`: [http] public_url, without a trailing slash. */
  constructor(private readonly publicUrl: string) {}

  reset(token: string): string {
    return `${this.publicUrl}${DASHBOARD_PAGES.reset}?token=${token}`;
  }

  verify(token: string): string {
    return `${this.publicUrl}${DASHBOARD_PAGES.verify}?token=${token}`;
  }

  invite(token: string): string {
    return `${this.publicUrl}${DASHBOARD_PAGES.signUp}?invite=${token}`;
  }

  signIn(): string {
    return `${this.publicUrl}${DASHBOARD_PAGES.signIn}`;
  }
}
