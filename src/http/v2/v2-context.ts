import type { Services } from '../../services/create-services.js';

/** What every v2 route module receives. */
export interface V2Context {
  readonly services: Services;
  /** Base of explorer links (no trailing slash needed). */
  readonly publicUrl: string;
}
