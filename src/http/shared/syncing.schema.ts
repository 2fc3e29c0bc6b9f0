/** The `syncing` field of v2 get_info and v3 network_info (presenters/syncing.presenter.ts). */
import { int, nullable, obj, str, type Schema } from './schema-kit.js';

export const syncingSchema: Schema = {
  anyOf: [
    { type: 'boolean', enum: [false] },
    obj({ phase: str, height: nullable('integer'), target_height: nullable('integer'), eta_seconds: nullable('integer'), updated_at: int }),
  ],
  description: 'false when caught up; else the initial-sync status (phase loading, building-indexes or catching-up; chain endpoints answer 503)',
};
