// The benchmark's baseline: the smallest react-admin app — one resource listed by ListGuesser over
// ra-data-simple-rest — built with the same react-admin, MUI and React as Presswork's admin.
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { Admin, ListGuesser, Resource } from 'react-admin';
import simpleRestProvider from 'ra-data-simple-rest';

const dataProvider = simpleRestProvider('/api');

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <Admin dataProvider={dataProvider} disableTelemetry>
      <Resource name="jobs" list={ListGuesser} />
    </Admin>
  </StrictMode>,
);
