// /api/admin/print-jobs: the react-admin surface of the same service (same rules, same tenancy).
import { idsFilter, optionalNumber, optionalString, type RestResource } from '../../http/simpleRest';
import { parse } from '../../http/validate';
import type { PrintJob, PrintJobSortField } from './repo';
import { changeBody, createBody } from './schema';
import type { PrintJobsService } from './service';
import { fieldError } from '../../http/fieldErrors';

function optionalFlag(value: unknown, field: string): boolean | undefined {
  if (value === undefined || value === null || value === '') return undefined;
  if (value === true || value === 1 || value === '1' || value === 'true') return true;
  if (value === false || value === 0 || value === '0' || value === 'false') return false;
  throw fieldError(`filter.${field}`, 'must be true or false');
}

export function printJobsResource(jobs: PrintJobsService): RestResource<PrintJobSortField, PrintJob> {
  return {
    bodies: { create: createBody, update: changeBody },
    sortFields: ['id', 'createdAt', 'updatedAt', 'printedAt', 'productName', 'quantity', 'clientId', 'reprintCount'],
    defaultSort: { field: 'createdAt', order: 'desc' },
    list: (actor, p) =>
      jobs.adminList(
        actor,
        {
          ids: idsFilter(p.filter.id),
          isPrinted: optionalFlag(p.filter.isPrinted, 'isPrinted'),
          readyForPrint: optionalFlag(p.filter.readyForPrint, 'readyForPrint'),
          held: optionalFlag(p.filter.held, 'held'),
          isPDFDownloaded: optionalFlag(p.filter.isPDFDownloaded, 'isPDFDownloaded'),
          clientId: optionalNumber(p.filter.clientId, 'clientId'),
          designId: optionalNumber(p.filter.designId, 'designId'),
          shopifyOrderId: optionalString(p.filter.shopifyOrderId, 'shopifyOrderId'),
          q: optionalString(p.filter.q, 'q'),
        },
        p.sort,
        p.limit,
        p.offset,
      ),
    getOne: (actor, id) => jobs.get(actor, id),
    create: (actor, body) => jobs.create(actor, parse(createBody, body)),
    // An update is a state change, exactly as POST /api/print-jobs with id.
    update: (actor, id, body) => jobs.change(actor, parse(changeBody, { ...(body as object), id })),
    remove: (actor, id) => jobs.remove(actor, id),
  };
}
