// Knex migrations, listed explicitly so they load the same under tsx, vitest and any bundler.
import type { Knex } from 'knex';
import * as foundation from './20261121_001_foundation';
import * as printProduction from './20261122_002_print_production';
import * as generalDataStatusSearch from './20261122_003_general_data_status_search';
import * as syncJobs from './20261123_010_sync_jobs';
import * as printJobMadeBy from './20261123_011_print_job_made_by';
import * as orderTables from './20261124_011_order_tables';
import * as inboxLease from './20261123_020_inbox_lease';
import * as providerChecks from './20261125_012_provider_checks';
import * as raisersEdgeConnection from './20261125_014_raisers_edge_connection';
import * as printJobWithdrawn from './20261125_013_print_job_withdrawn';
import * as idempotencyKeys from './20261126_013_idem_idempotency_keys';
import * as printedByName from './20261126_013_t_print_job_printed_by_name';
import * as storeReconciliations from './20261127_015_store_reconciliations';
import * as printJobPreflight from './20261128_016_print_job_preflight';
import * as batches from './20261129_017_batches';
import * as printJobPacked from './20261130_018_print_job_packed';
import * as batchRules from './20261201_019_batch_rules';
import * as searchIndexes from './20261202_022_search_indexes';
import * as printJobReprints from './20261203_021_print_job_reprints';
import * as history from './20261204_023_history';
import * as orderSentToProviderAt from './20261205_024_order_sent_to_provider_at';
import * as signInFailures from './20261206_025_sign_in_failures';
import * as orderPrintedByProviderAt from './20261206_026_order_printed_by_provider_at';
import * as printJobOrderIndex from './20261207_027_print_job_order_index';
import * as storeAppConnection from './20261208_028_store_app_connection';
import * as printJobCopies from './20261209_029_print_job_copies';
import * as printProfiles from './20261210_030_print_profiles';
import * as lineWaits from './20261210_035_line_waits';
import * as stock from './20261211_031_stock';
import * as routingRules from './20261212_034_routing_rules';

type Migration = { up(knex: Knex): Promise<void>; down(knex: Knex): Promise<void> };

const migrations: Record<string, Migration> = {
  '20261121_001_foundation': foundation,
  '20261122_002_print_production': printProduction,
  '20261122_003_general_data_status_search': generalDataStatusSearch,
  '20261123_010_sync_jobs': syncJobs,
  '20261123_011_print_job_made_by': printJobMadeBy,
  '20261124_011_order_tables': orderTables,
  '20261123_020_inbox_lease': inboxLease,
  '20261125_012_provider_checks': providerChecks,
  '20261125_014_raisers_edge_connection': raisersEdgeConnection,
  '20261125_013_print_job_withdrawn': printJobWithdrawn,
  '20261126_013_idem_idempotency_keys': idempotencyKeys,
  '20261126_013_t_print_job_printed_by_name': printedByName,
  '20261127_015_store_reconciliations': storeReconciliations,
  '20261128_016_print_job_preflight': printJobPreflight,
  '20261129_017_batches': batches,
  '20261130_018_print_job_packed': printJobPacked,
  '20261201_019_batch_rules': batchRules,
  '20261202_022_search_indexes': searchIndexes,
  '20261203_021_print_job_reprints': printJobReprints,
  '20261204_023_history': history,
  '20261205_024_order_sent_to_provider_at': orderSentToProviderAt,
  '20261206_025_sign_in_failures': signInFailures,
  '20261206_026_order_printed_by_provider_at': orderPrintedByProviderAt,
  '20261207_027_print_job_order_index': printJobOrderIndex,
  '20261208_028_store_app_connection': storeAppConnection,
  '20261209_029_print_job_copies': printJobCopies,
  '20261210_030_print_profiles': printProfiles,
  '20261210_035_line_waits': lineWaits,
  '20261211_031_stock': stock,
  '20261212_034_routing_rules': routingRules,
};

export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(migrations).sort(),
  getMigrationName: (name) => name,
  getMigration: async (name) => migrations[name],
};
