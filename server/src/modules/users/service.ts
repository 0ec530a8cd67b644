// Users: sign-in, the current user, and user administration with its role and tenancy rules.
import bcrypt from 'bcryptjs';
import type { Deps } from '../../deps';
import { HttpError, conflict, forbidden, notFound, unauthorized } from '../../http/errors';
import type { Actor, Role } from '../../http/types';
import { isoNow } from '../../lib/clock';
import { pageWindow } from '../../lib/paging';
import { assertAdmin, isAdmin } from '../auth';
import { signInThrottle } from '../auth';
import { signToken, verifyToken } from '../auth';
import { usersRepo, type SortField, type UserFilter, type UserRow } from './repo';
import type { RegisterInput, UpsertInput } from './schema';
import { siteExists as siteExistsIn } from '../sites';
import { fieldError } from '../../http/fieldErrors';

export const BCRYPT_COST = 10;
export const WRONG_CREDENTIALS = 'Wrong email or password';

export interface PublicUser {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
  role: Role;
  siteId: number;
  createdAt: string;
}

export const publicUser = (r: UserRow): PublicUser => ({
  id: r.id,
  firstName: r.first_name,
  lastName: r.last_name,
  email: r.email,
  role: r.role,
  siteId: r.site_id,
  createdAt: r.created_at,
});

const actorOf = (r: UserRow): Actor => ({ id: r.id, firstName: r.first_name, lastName: r.last_name, email: r.email, role: r.role, siteId: r.site_id });

// Compared against when the email is unknown, so both failures take the same time. Made on the first
// sign-in, not at start (a blocking hash at import held up every start by ~0.1 s).
let dummyHash: Promise<string> | undefined;
const timingEqualiser = () => (dummyHash ??= bcrypt.hash('presswork-timing-equaliser', BCRYPT_COST));

export function usersService({ db, clock, config, log }: Deps) {
  const repo = usersRepo(db);
  const throttle = signInThrottle(db, config.login, log);

  async function siteExists(siteId: number) {
    return siteExistsIn(db, siteId);
  }

  async function assertEmailFree(email: string, exceptId?: number) {
    const other = await repo.byEmail(email);
    if (other && other.id !== exceptId) throw fieldError('email', 'A user with this email already exists.', 409);
  }

  async function createUser(input: RegisterInput): Promise<PublicUser> {
    if (!(await siteExists(input.siteId))) throw fieldError('siteId', 'does not exist');
    await assertEmailFree(input.email);
    const now = isoNow(clock);
    const id = await repo.insert({
      first_name: input.firstName,
      last_name: input.lastName,
      email: input.email,
      password_hash: await bcrypt.hash(input.password, BCRYPT_COST),
      role: input.role,
      site_id: input.siteId,
      created_at: now,
      updated_at: now,
    });
    return publicUser((await repo.byId(id))!);
  }

  /**
   * The user behind a token, freshly read: a deleted user or a changed role takes effect at once,
   * and a token issued while the user belonged to another site is refused.
   */
  async function authenticate(token: string): Promise<{ actor: Actor; jti: string; expiresAt: Date } | null> {
    const verified = verifyToken(config.jwt, token, clock.now());
    if (!verified) return null;
    const row = await repo.activeUser(verified.userId, verified.jti);
    if (!row) return null;
    if (verified.siteId !== undefined && verified.siteId !== row.site_id) return null;
    return { actor: actorOf(row), jti: verified.jti, expiresAt: verified.expiresAt };
  }

  async function login(email: string, password: string, address: string) {
    const equaliser = timingEqualiser();
    const now = clock.now().getTime();
    const wait = await throttle.retryAfter(email, address, now);
    if (wait > 0) {
      throw new HttpError(429, `Too many failed sign-ins. Please try again in ${wait} seconds.`, undefined, { 'Retry-After': String(wait) });
    }
    const row = await repo.byEmail(email);
    const good = await bcrypt.compare(password, row?.password_hash ?? (await equaliser));
    if (!row || !good) {
      await throttle.recordFailure(email, address, now);
      throw unauthorized(WRONG_CREDENTIALS);
    }
    await throttle.recordSuccess(email);
    return { token: signToken(config.jwt, row.id, row.site_id), publicInfo: publicUser(row) };
  }

  async function logout(jti: string, expiresAt: Date) {
    await repo.revokeToken(jti, expiresAt.toISOString());
    await repo.purgeRevoked(isoNow(clock));
  }

  async function get(actor: Actor, id: number): Promise<PublicUser> {
    const row = await repo.byId(id);
    if (!row || (!isAdmin(actor) && row.site_id !== actor.siteId)) throw notFound('User not found');
    if (!isAdmin(actor) && row.id !== actor.id) throw forbidden('You can only see your own account');
    return publicUser(row);
  }

  async function register(actor: Actor, input: RegisterInput) {
    assertAdmin(actor, 'Only an admin can create users');
    return createUser(input);
  }

  /** Create (no id) or update. A non-admin may only change their own name, email and password. */
  async function upsert(actor: Actor, input: UpsertInput): Promise<PublicUser> {
    if (!input.id) {
      assertAdmin(actor, 'Only an admin can create users');
      const missing = (['firstName', 'email', 'password', 'siteId'] as const).filter((k) => input[k] === undefined);
      if (missing.length) throw fieldError(missing[0], 'is required');
      return createUser({
        firstName: input.firstName!,
        lastName: input.lastName ?? '',
        email: input.email!,
        password: input.password!,
        role: input.role ?? 'user',
        siteId: input.siteId!,
      });
    }
    const row = await repo.byId(input.id);
    if (!row || (!isAdmin(actor) && row.site_id !== actor.siteId)) throw notFound('User not found');
    if (!isAdmin(actor)) {
      if (row.id !== actor.id) throw forbidden('You can only change your own account');
      if (input.role !== undefined && input.role !== row.role) throw forbidden('You cannot change your own role');
      if (input.siteId !== undefined && input.siteId !== row.site_id) throw forbidden('You cannot move yourself to another site');
    }
    if (input.siteId !== undefined && !(await siteExists(input.siteId))) throw fieldError('siteId', 'does not exist');
    if (input.email !== undefined) await assertEmailFree(input.email, row.id);
    if (row.role === 'admin' && input.role === 'user' && (await repo.countAdmins()) <= 1) {
      throw fieldError('role', 'The last admin cannot be demoted.', 409);
    }
    const changes: Partial<UserRow> = { updated_at: isoNow(clock) };
    if (input.firstName !== undefined) changes.first_name = input.firstName;
    if (input.lastName !== undefined) changes.last_name = input.lastName;
    if (input.email !== undefined) changes.email = input.email;
    if (input.role !== undefined) changes.role = input.role;
    if (input.siteId !== undefined) changes.site_id = input.siteId;
    if (input.password !== undefined) changes.password_hash = await bcrypt.hash(input.password, BCRYPT_COST);
    await repo.update(row.id, changes);
    return publicUser((await repo.byId(row.id))!);
  }

  async function listBySite(actor: Actor, siteId: number, page?: number) {
    assertAdmin(actor, 'Only an admin can list the users of a site');
    if (!(await siteExists(siteId))) throw notFound('Site not found');
    const w = pageWindow(page, 100);
    const { rows, total } = await repo.list({ siteId }, { field: 'id', order: 'asc' }, w.limit, w.offset);
    return { list: rows.map(publicUser), hasNext: w.offset + rows.length < total, total };
  }

  async function list(actor: Actor, filter: UserFilter, sort: { field: SortField; order: 'asc' | 'desc' }, limit: number, offset: number) {
    assertAdmin(actor, 'Only an admin can list users');
    const { rows, total } = await repo.list(filter, sort, limit, offset);
    return { rows: rows.map(publicUser), total };
  }

  async function remove(actor: Actor, id: number): Promise<PublicUser> {
    assertAdmin(actor, 'Only an admin can delete users');
    const row = await repo.byId(id);
    if (!row) throw notFound('User not found');
    if (row.id === actor.id) throw conflict('You cannot delete your own account');
    await repo.delete(id);
    return publicUser(row);
  }

  /** First start: make sure the configured first admin exists (never overwrites an existing user). */
  async function ensureFirstAdmin(siteId: number) {
    const first = config.firstAdmin;
    if (!first || (await repo.byEmail(first.email))) return;
    await createUser({ firstName: 'Admin', lastName: '', email: first.email, password: first.password, role: 'admin', siteId });
  }

  return { authenticate, login, logout, get, register, upsert, listBySite, list, remove, createUser, ensureFirstAdmin };
}

export type UsersService = ReturnType<typeof usersService>;
