// Knex migrations, listed explicitly so they load the same under tsx, vitest and any bundler.
import type { Knex } from 'knex';
import * as foundation from './20261121_001_foundation';

type Migration = { up(knex: Knex): Promise<void>; down(knex: Knex): Promise<void> };

const migrations: Record<string, Migration> = {
  '20261121_001_foundation': foundation,
};

export const migrationSource: Knex.MigrationSource<string> = {
  getMigrations: async () => Object.keys(migrations).sort(),
  getMigrationName: (name) => name,
  getMigration: async (name) => migrations[name],
};
