// Databases record migrations by name and run the pending ones in sorted name order: the names must
// stay as they are, sort in the order they are meant to run, and no migration may lean on live code.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { migrationSource } from './index';

const here = fileURLToPath(new URL('.', import.meta.url));
const files = readdirSync(here).filter((f) => /^\d{8}_.+\.ts$/.test(f) && !f.endsWith('.test.ts'));

/** The order the migrations are meant to run in: append a new one at the end, with a name that sorts last. */
const INTENDED = [
  '20261121_001_foundation',
  '20261122_002_print_production',
  '20261122_003_general_data_status_search',
  '20261123_010_sync_jobs',
  '20261123_011_print_job_made_by',
  '20261123_020_inbox_lease',
  '20261124_011_order_tables',
  '20261125_012_provider_checks',
  '20261125_013_print_job_withdrawn',
  '20261125_014_raisers_edge_connection',
  '20261126_013_idem_idempotency_keys',
  '20261126_013_t_print_job_printed_by_name',
  '20261127_015_store_reconciliations',
  '20261128_016_print_job_preflight',
  '20261129_017_batches',
  '20261130_018_print_job_packed',
  '20261201_019_batch_rules',
  '20261202_022_search_indexes',
  '20261203_021_print_job_reprints',
  '20261204_023_history',
  '20261205_024_order_sent_to_provider_at',
  '20261206_025_sign_in_failures',
  '20261206_026_order_printed_by_provider_at',
  '20261207_027_print_job_order_index',
  '20261208_028_store_app_connection',
  '20261209_029_print_job_copies',
  '20261210_030_print_profiles',
  '20261210_035_line_waits',
  '20261211_031_stock',
  '20261212_034_routing_rules',
];

describe('migrations', () => {
  it('run in the intended order, which is their names sorted', async () => {
    expect(await migrationSource.getMigrations([])).toEqual(INTENDED);
    expect([...INTENDED].sort()).toEqual(INTENDED);
  });

  it('registers every migration file under its file name', () => {
    expect(files.map((f) => f.replace(/\.ts$/, '')).sort()).toEqual(INTENDED);
  });

  it('import nothing of the server: what they need is frozen in the file', () => {
    for (const f of files) {
      const imports = [...readFileSync(`${here}/${f}`, 'utf8').matchAll(/from\s+'([^']+)'/g)].map((m) => m[1]);
      expect(imports.filter((i) => i.startsWith('.')), f).toEqual([]);
    }
  });
});
