// The address a request came in on, for links in answers (PUBLIC_URL when set: behind a proxy the Host may be inside).
import type { Request } from 'express';
import type { Config } from '../config';

/** The server's own base URL for this request: config.publicUrl, else the request's protocol and host. */
export function baseUrlOf(req: Request, config: Config): string {
  return config.publicUrl ?? `${req.protocol}://${req.get('host')}`;
}
