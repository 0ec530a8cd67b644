// What other modules may read of designs, by name; the repo stays inside.
import { designsRepo } from './repo';

type Repo = ReturnType<typeof designsRepo>;
type Conn = Parameters<typeof designsRepo>[0];

export const findDesign = (db: Conn, ...args: Parameters<Repo['byId']>): ReturnType<Repo['byId']> => designsRepo(db).byId(...args);
export const findDesignBySku = (db: Conn, ...args: Parameters<Repo['bySku']>): ReturnType<Repo['bySku']> => designsRepo(db).bySku(...args);
export const productTypesOfSkus = (db: Conn, ...args: Parameters<Repo['productTypesOfSkus']>): ReturnType<Repo['productTypesOfSkus']> => designsRepo(db).productTypesOfSkus(...args);
export const findDesignsBySkus = (db: Conn, ...args: Parameters<Repo['bySkus']>): ReturnType<Repo['bySkus']> => designsRepo(db).bySkus(...args);
export const findDesignsByIds = (db: Conn, ...args: Parameters<Repo['byIds']>): ReturnType<Repo['byIds']> => designsRepo(db).byIds(...args);
