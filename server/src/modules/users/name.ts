import type { Actor } from '../../http/types';

/** A user's name as records keep it (who printed, who made a batch, who did what in the history). */
export const nameOf = (actor: Pick<Actor, 'firstName' | 'lastName' | 'email'>) => [actor.firstName, actor.lastName].filter(Boolean).join(' ').trim() || actor.email;
