import type { Services } from '../../services/create-services.js';
import type { V3Services } from '../../services/create-v3-services.js';

/** What every v3 route module receives: the services v2 uses plus v3's own. */
export interface V3Context {
  readonly services: Services;
  readonly v3: V3Services;
  /** UNIX seconds. */
  readonly now: () => number;
}
