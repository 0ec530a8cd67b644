// The part of tar-stream's API the backup archive uses (the package ships no types of its own;
// @types/tar-stream would replace this file).
declare module 'tar-stream' {
  import type { Readable, Writable } from 'node:stream';

  export type EntryType =
    | 'file'
    | 'link'
    | 'symlink'
    | 'character-device'
    | 'block-device'
    | 'directory'
    | 'fifo'
    | 'contiguous-file'
    | 'pax-header'
    | 'pax-global-header'
    | 'gnu-long-link-path'
    | 'gnu-long-path';

  export interface Headers {
    name: string;
    size?: number;
    mode?: number;
    mtime?: Date;
    type?: EntryType | null;
    linkname?: string | null;
  }

  export interface Pack extends Readable {
    /** The entry's body is written to the returned stream; `callback` runs once it is in the archive. */
    entry(headers: Headers, callback?: (err?: Error | null) => void): Writable;
    entry(headers: Headers, body: string | Buffer, callback?: (err?: Error | null) => void): Writable;
    finalize(): void;
  }

  export interface Extract extends Writable {
    on(event: 'entry', listener: (headers: Headers & { size: number; type: EntryType | null }, stream: Readable, next: (err?: Error) => void) => void): this;
    on(event: string | symbol, listener: (...args: unknown[]) => void): this;
  }

  export function pack(): Pack;
  export function extract(): Extract;
}
