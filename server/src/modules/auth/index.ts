// Owns who may do what: permissions, tenancy scope, tokens and the sign-in throttle.
export { assertAdmin, canOnRecord, DEFAULT_PERMISSION, isAdmin, type Permission } from './permissions';
export { managesSiteOrShared, seesSite, seesSiteOrShared, siteScope, visibleTo } from './scope';
export { signInThrottle } from './throttle';
export { bearerToken, signToken, verifyToken } from './tokens';
