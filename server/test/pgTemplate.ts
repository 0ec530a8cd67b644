// globalSetup of the server suite on PostgreSQL (TEST_DATABASE_URL): one database migrated once a
// run, which each test world then copies (CREATE DATABASE … TEMPLATE) instead of creating an empty
// database and running every migration again. On SQLite it does nothing.
import type { TestProject } from 'vitest/node';
import { createDb, migrate } from '../src/db';
import { createPgDatabase } from './infra';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Name of the migrated template database, when the suite runs on PostgreSQL. */
    pgTemplate: string | null;
  }
}

export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  const url = process.env.TEST_DATABASE_URL;
  project.provide('pgTemplate', null);
  if (!url) return undefined;
  const template = await createPgDatabase(url, 'pw_template');
  const db = createDb({ client: 'pg', url: template.url });
  try {
    await migrate(db);
  } finally {
    // A database with a connection open cannot be copied.
    await db.destroy();
  }
  project.provide('pgTemplate', template.name);
  return template.drop;
}
