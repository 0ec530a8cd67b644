import { createElement, lazy, type ComponentType } from 'react';
import type { PlainRecordScreens } from './RecordList';

/** The resource definition of a plain general-data record type (list + upsert screens, loaded on first visit). */
export function plainRecordResource(screens: PlainRecordScreens, icon: ComponentType) {
  const list = lazy(() => import('./RecordList').then((m) => ({ default: () => createElement(m.RecordList, screens) })));
  const edit = lazy(() => import('./RecordEdit').then((m) => ({ default: () => createElement(m.RecordEdit, screens) })));
  return { list, edit, create: edit, icon, recordRepresentation: 'name' };
}
