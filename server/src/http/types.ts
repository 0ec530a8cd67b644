// What the auth middleware attaches to a request.
import type { Role } from '../../../common/api/sites';

export type { Role };

export interface Actor {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  role: Role;
  siteId: number;
}

export interface TokenInfo {
  jti: string;
  expiresAt: Date;
}

declare module 'express-serve-static-core' {
  interface Request {
    actor?: Actor;
    token?: TokenInfo;
  }
}
