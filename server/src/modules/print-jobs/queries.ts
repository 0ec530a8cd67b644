// What other modules may read or change of print jobs, by name; the repo stays inside.
import { printJobsRepo } from './repo';

type Repo = ReturnType<typeof printJobsRepo>;
type Conn = Parameters<typeof printJobsRepo>[0];

export const findPrintJob = (db: Conn, ...args: Parameters<Repo['byId']>): ReturnType<Repo['byId']> => printJobsRepo(db).byId(...args);
export const countUnprintedJobsOfDesign = (db: Conn, ...args: Parameters<Repo['countUnprintedForDesign']>): ReturnType<Repo['countUnprintedForDesign']> => printJobsRepo(db).countUnprintedForDesign(...args);
export const owedPrintJobs = (db: Conn, ...args: Parameters<Repo['owedJobs']>): ReturnType<Repo['owedJobs']> => printJobsRepo(db).owedJobs(...args);
export const heldPrintJobs = (db: Conn, ...args: Parameters<Repo['heldJobs']>): ReturnType<Repo['heldJobs']> => printJobsRepo(db).heldJobs(...args);
export const printJobsOfOrder = (db: Conn, ...args: Parameters<Repo['ofOrder']>): ReturnType<Repo['ofOrder']> => printJobsRepo(db).ofOrder(...args);
export const printJobLinesOfOrders = (db: Conn, ...args: Parameters<Repo['linesOfOrders']>): ReturnType<Repo['linesOfOrders']> => printJobsRepo(db).linesOfOrders(...args);
export const printJobIds = (db: Conn, ...args: Parameters<Repo['idsOf']>): ReturnType<Repo['idsOf']> => printJobsRepo(db).idsOf(...args);
export const setPrintJobLabel = (db: Conn, ...args: Parameters<Repo['setLabel']>): ReturnType<Repo['setLabel']> => printJobsRepo(db).setLabel(...args);
