// Every service, built once from the same dependencies. Both HTTP surfaces call these.
import path from 'node:path';
import os from 'node:os';
import type { Deps } from './deps';
import { generalDataService } from './modules/general-data/service';
import { sitesService } from './modules/sites/service';
import { uploadsService } from './modules/uploads/service';
import { diskStore, type FileStore } from './modules/uploads/storage';
import { usersService } from './modules/users/service';

export function fileStoreFor(dataDir: string): FileStore {
  return diskStore(dataDir === ':memory:' ? path.join(os.tmpdir(), `presswork-files-${process.pid}`) : path.join(dataDir, 'files'));
}

export function createServices(deps: Deps, store: FileStore = fileStoreFor(deps.config.dataDir)) {
  return {
    users: usersService(deps),
    sites: sitesService(deps),
    generalData: generalDataService(deps),
    uploads: uploadsService(deps, store),
    store,
  };
}

export type Services = ReturnType<typeof createServices>;
